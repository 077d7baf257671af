package io.rdma.srq.bench;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

/**
 * Server B's responder of the two-server request/reply cases under REQUIRED: as
 * {@link SrqResponderRequired}, on libfabric tcp (provider fabric) at {@value ServerB#ADDRESS}:{@value #PORT}.
 * Its delivery starts inactive (jboss-ejb3.xml): two-servers.sh starts it on B only
 * ({@code start-delivery}), so a single-server run has no activation of it.
 */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "fabric"),
        @ActivationConfigProperty(propertyName = "device", propertyValue = "tcp"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = ServerB.ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + FabricResponderRequired.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = "bench-fabric-rr-required"),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "16"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "4096"),
        @ActivationConfigProperty(propertyName = "replyBufferSize", propertyValue = "4096"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "8")})
@TransactionAttribute(TransactionAttributeType.REQUIRED)
public class FabricResponderRequired implements SrqReceiveListener {
    /** The activation's listenPort. */
    public static final int PORT = 7597;

    @Override
    public void onReceive(ReceiveCompletion completion) {
        SrqResponderRequired.echo(completion);
    }
}
