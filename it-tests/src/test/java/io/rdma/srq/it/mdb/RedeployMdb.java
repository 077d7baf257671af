package io.rdma.srq.it.mdb;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/** The MDB of the application that is deployed, used, undeployed and deployed again. */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = Messages.ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + RedeployMdb.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = RedeployMdb.NAME),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "16"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "4")})
public class RedeployMdb implements SrqReceiveListener {
    /** listenPort. */
    public static final int PORT = 7485;
    /** srqName and tally name. */
    public static final String NAME = "redeploy";
    /** The payload marker. */
    public static final byte MARKER = 'R';

    @Override
    public void onReceive(ReceiveCompletion completion) {
        Tally.of(NAME).record(completion, MARKER);
    }
}
