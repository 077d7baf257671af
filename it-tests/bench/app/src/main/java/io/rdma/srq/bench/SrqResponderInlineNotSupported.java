package io.rdma.srq.bench;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

/**
 * The responder of the pooled-SRQ request/reply case {@code srq-inline-not-supported}: as {@link
 * SrqResponderNotSupported} but with maxConcurrency 1, so the activation's poller (itself a Work of the
 * container's WorkManager) invokes this MDB through the container itself, without handing each
 * request to a pool thread. Listens on {@value #PORT}.
 */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = ThroughputCase.SRQ_ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + SrqResponderInlineNotSupported.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = "bench-rr-inline-not-supported"),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "16"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "4096"),
        @ActivationConfigProperty(propertyName = "replyBufferSize", propertyValue = "4096"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "1")})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class SrqResponderInlineNotSupported implements SrqReceiveListener {
    /** The activation's listenPort. */
    public static final int PORT = 7498;

    @Override
    public void onReceive(ReceiveCompletion completion) {
        SrqResponderRequired.echo(completion);
    }
}
