package io.rdma.srq.it.mdb;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/**
 * A slow consumer on a small SRQ: 16 receive WRs posted (fixed), limit 8, one endpoint taking
 * {@value #MILLIS} ms per message. A burst consumes the posted WRs faster than they come back, so the
 * SRQ falls below its limit: IBV_EVENT_SRQ_LIMIT_REACHED, and the adapter fires SrqLimitReached.
 */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = Messages.ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + SlowMdb.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = SlowMdb.NAME),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "" + SlowMdb.LIMIT),
        @ActivationConfigProperty(propertyName = "initialFill", propertyValue = "16"),
        @ActivationConfigProperty(propertyName = "replenishPolicy", propertyValue = "fixed"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "1")})
public class SlowMdb implements SrqReceiveListener {
    /** listenPort. */
    public static final int PORT = 7482;
    /** srqName and tally name. */
    public static final String NAME = "slow";
    /** srqLimit. */
    public static final int LIMIT = 8;
    /** Time per message. */
    public static final int MILLIS = 2;
    /** The payload marker. */
    public static final byte MARKER = 'S';

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
