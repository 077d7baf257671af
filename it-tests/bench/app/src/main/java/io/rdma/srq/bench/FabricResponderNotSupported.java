package io.rdma.srq.bench;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

/**
 * Server B's responder of the two-server request/reply cases under NOT_SUPPORTED: as
 * {@link SrqResponderNotSupported}, on libfabric tcp (provider fabric) at {@value ServerB#ADDRESS}:{@value #PORT}.
 * Its delivery starts inactive (jboss-ejb3.xml): two-servers.sh starts it on B only
 * ({@code start-delivery}), so a single-server run has no activation of it.
 */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "fabric"),
        @ActivationConfigProperty(propertyName = "device", propertyValue = "tcp"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = ServerB.ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + FabricResponderNotSupported.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = "bench-fabric-rr-not-supported"),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "16"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "4096"),
        @ActivationConfigProperty(propertyName = "replyBufferSize", propertyValue = "4096"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "8")})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class FabricResponderNotSupported implements SrqReceiveListener {
    /** The activation's listenPort. */
    public static final int PORT = 7598;

    @Override
    public void onReceive(ReceiveCompletion completion) {
        SrqResponderRequired.echo(completion);
    }
}
