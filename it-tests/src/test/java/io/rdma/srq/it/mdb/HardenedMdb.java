package io.rdma.srq.it.mdb;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/**
 * An MDB on the hardened adapter instance {@code srq-hardened} (bound by the app's jboss-ejb3.xml):
 * only peers presenting a token of key {@code k1}, from 10.77.1.0/24 (the soft devices' addresses),
 * get in. The alias is no secret; the key is the adapter's authKeys, from the credential store.
 */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = Messages.ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + HardenedMdb.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = HardenedMdb.NAME),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "16"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "authKey", propertyValue = "k1"),
        @ActivationConfigProperty(propertyName = "allowedPeers", propertyValue = "10.77.1.0/24"),
        @ActivationConfigProperty(propertyName = "maxConnectionsPerPeer", propertyValue = "16")})
public class HardenedMdb implements SrqReceiveListener {
    /** listenPort. */
    public static final int PORT = 7489;
    /** srqName and tally name. */
    public static final String NAME = "hardened";
    /** The payload marker. */
    public static final byte MARKER = 'H';

    @Override
    public void onReceive(ReceiveCompletion completion) {
        Tally.of(NAME).record(completion, MARKER);
    }
}
