package io.rdma.srq.it.mdb;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/** Records every message of its activation (port {@value #PORT}, 8 endpoints at once). */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = Messages.ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + DeliveryMdb.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = DeliveryMdb.NAME),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "16"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "8")})
public class DeliveryMdb implements SrqReceiveListener {
    /** listenPort. */
    public static final int PORT = 7481;
    /** srqName and tally name. */
    public static final String NAME = "delivery";
    /** The payload marker. */
    public static final byte MARKER = 'D';

    @Override
    public void onReceive(ReceiveCompletion completion) {
        Tally.of(NAME).record(completion, MARKER);
    }
}
