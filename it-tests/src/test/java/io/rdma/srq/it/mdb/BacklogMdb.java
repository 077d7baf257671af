package io.rdma.srq.it.mdb;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/**
 * A slow MDB whose backlog outlasts its drain: one endpoint taking {@value #MILLIS} ms per message,
 * {@value #BACKLOG} receive WRs posted and reposted (fixed), so a sender that keeps up builds a backlog
 * of about {@value #BACKLOG} × {@value #MILLIS} ms of work in the CQ, far more than drainTimeout
 * {@value #DRAIN_MS} ms delivers at deactivation: the rest is counted undelivered (SRQRA0300).
 */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = Messages.ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + BacklogMdb.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = BacklogMdb.NAME),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "" + BacklogMdb.BACKLOG),
        @ActivationConfigProperty(propertyName = "initialFill", propertyValue = "" + BacklogMdb.BACKLOG),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "16"),
        @ActivationConfigProperty(propertyName = "replenishPolicy", propertyValue = "fixed"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "drainTimeout", propertyValue = "" + BacklogMdb.DRAIN_MS),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "1")})
public class BacklogMdb implements SrqReceiveListener {
    /** listenPort. */
    public static final int PORT = 7501;
    /** srqName and tally name. */
    public static final String NAME = "backlog";
    /** The payload marker. */
    public static final byte MARKER = 'K';
    /** Time per message, ms. */
    public static final int MILLIS = 10;
    /** srqMaxWr and initialFill: the backlog the CQ can hold. */
    public static final int BACKLOG = 128;
    /** drainTimeout, ms: a fraction of the backlog's {@value #BACKLOG} × {@value #MILLIS} ms. */
    public static final int DRAIN_MS = 200;

    @Override
    public void onReceive(ReceiveCompletion completion) {
        Tally.of(NAME).record(completion, MARKER);
        try {
            Thread.sleep(MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
