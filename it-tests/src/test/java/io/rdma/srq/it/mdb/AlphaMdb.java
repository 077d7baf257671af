package io.rdma.srq.it.mdb;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/** One of two activations on the same device (soft_rxe0), each with its own port and SRQ. */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "device", propertyValue = "soft_rxe0"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = Messages.ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + AlphaMdb.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = AlphaMdb.NAME),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "128"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "0"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "4")})
public class AlphaMdb implements SrqReceiveListener {
    /** listenPort. */
    public static final int PORT = 7483;
    /** srqName and tally name. */
    public static final String NAME = "alpha";
    /** The payload marker of the messages sent to it. */
    public static final byte MARKER = 'A';

    @Override
    public void onReceive(ReceiveCompletion completion) {
        Tally.of(NAME).record(completion, MARKER);
    }
}
