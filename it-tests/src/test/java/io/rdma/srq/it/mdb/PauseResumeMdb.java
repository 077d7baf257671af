package io.rdma.srq.it.mdb;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/**
 * A pause test's MDB ({@link FirstFailuresSink}): maxSequentialDeliveryFailures
 * {@value FirstFailuresSink#FAILURES}, maxDeliveryAttempts 1 (each failure is dead-lettered), one
 * endpoint, 64 receive WRs; pauseTimeout 0: paused until an operator resumes it (stop-delivery, start-delivery).
 */
@MessageDriven(messageListenerInterface = io.rdma.srq.api.SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = Messages.ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + PauseResumeMdb.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = PauseResumeMdb.NAME),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "initialFill", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "8"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "maxSequentialDeliveryFailures",
                propertyValue = "" + FirstFailuresSink.FAILURES),
        @ActivationConfigProperty(propertyName = "pauseTimeout", propertyValue = "" + PauseResumeMdb.PAUSE_MS),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "1")})
public class PauseResumeMdb extends FirstFailuresSink {
    /** listenPort. */
    public static final int PORT = 7502;
    /** srqName and tally name. */
    public static final String NAME = "pause-resume";
    /** The payload marker. */
    public static final byte MARKER = 'P';
    /** pauseTimeout, ms. */
    public static final int PAUSE_MS = 0;

    @Override
    protected String name() {
        return NAME;
    }

    @Override
    protected byte marker() {
        return MARKER;
    }
}
