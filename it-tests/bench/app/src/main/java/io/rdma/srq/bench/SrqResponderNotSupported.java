package io.rdma.srq.bench;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

/**
 * The responder of the pooled-SRQ request/reply cases under NOT_SUPPORTED; as {@link
 * SrqResponderRequired} otherwise. Listens on {@value #PORT}.
 */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = ThroughputCase.SRQ_ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + SrqResponderNotSupported.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = "bench-rr-not-supported"),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "16"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "4096"),
        @ActivationConfigProperty(propertyName = "replyBufferSize", propertyValue = "4096"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "8")})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class SrqResponderNotSupported implements SrqReceiveListener {
    /** The activation's listenPort. */
    public static final int PORT = 7494;

    @Override
    public void onReceive(ReceiveCompletion completion) {
        SrqResponderRequired.echo(completion);
    }
}
