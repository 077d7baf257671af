package io.rdma.srq.it.mdb;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/**
 * One of the suspend test's three slow MDBs ({@link SuspendSink}): a single endpoint, 512 receive WRs
 * posted and reposted (fixed), drainTimeout 20 s so that its whole backlog is delivered at deactivation.
 */
@MessageDriven(messageListenerInterface = io.rdma.srq.api.SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = Messages.ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + SuspendBMdb.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = SuspendBMdb.NAME),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "" + SuspendSink.BACKLOG),
        @ActivationConfigProperty(propertyName = "initialFill", propertyValue = "" + SuspendSink.BACKLOG),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "16"),
        @ActivationConfigProperty(propertyName = "replenishPolicy", propertyValue = "fixed"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "drainTimeout", propertyValue = "20000"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "1")})
public class SuspendBMdb extends SuspendSink {
    /** listenPort. */
    public static final int PORT = 7496;
    /** srqName and tally name. */
    public static final String NAME = "suspend-b";
    /** The payload marker. */
    public static final byte MARKER = 'B';

    @Override
    protected String name() {
        return NAME;
    }

    @Override
    protected byte marker() {
        return MARKER;
    }
}
