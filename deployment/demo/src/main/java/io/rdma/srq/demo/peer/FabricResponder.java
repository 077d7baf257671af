package io.rdma.srq.demo.peer;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

/**
 * The responder of the main job's two-server phase ({@code run-demo.sh --two-servers}), deployed
 * alone on the second server as {@code srq-demo-peer.war}: answers every request with its own
 * bytes over libfabric's tcp (provider fabric) on {@value #LISTEN_ADDRESS}:{@value #LISTEN_PORT}, published
 * as the service {@value #SERVICE} ({@code --cluster}: the first server calls it by that name).
 * The demo war leaves this package out, so the first server does not listen there too.
 */
@MessageDriven(name = "FabricResponder", messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "fabric"),
        @ActivationConfigProperty(propertyName = "device", propertyValue = "tcp"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = FabricResponder.LISTEN_ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + FabricResponder.LISTEN_PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = "demo-peer-responder"),
        @ActivationConfigProperty(propertyName = "serviceName", propertyValue = FabricResponder.SERVICE),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "4096"),
        @ActivationConfigProperty(propertyName = "pollMode", propertyValue = "adaptive"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "1")})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class FabricResponder implements SrqReceiveListener {
    /** Where it listens: the loopback both servers share. */
    public static final String LISTEN_ADDRESS = "127.0.0.1";
    /** Its port (a real TCP port: not shifted by the server's port offset). */
    public static final int LISTEN_PORT = 7473;
    /** The service it publishes (run-demo.sh --cluster calls it by this name). */
    public static final String SERVICE = "demo-peer";

    @Override
    public void onReceive(ReceiveCompletion completion) {
        completion.reply(completion.payload());
    }
}
