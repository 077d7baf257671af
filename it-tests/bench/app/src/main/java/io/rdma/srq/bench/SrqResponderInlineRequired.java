package io.rdma.srq.bench;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

/**
 * The responder of the pooled-SRQ request/reply case {@code srq-inline-required}: as {@link
 * SrqResponderRequired} but with maxConcurrency 1, so the activation's poller (itself a Work of the
 * container's WorkManager) invokes this MDB through the container itself, without handing each
 * request to a pool thread. Listens on {@value #PORT}.
 */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = ThroughputCase.SRQ_ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + SrqResponderInlineRequired.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = "bench-rr-inline-required"),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "16"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "4096"),
        @ActivationConfigProperty(propertyName = "replyBufferSize", propertyValue = "4096"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "1")})
@TransactionAttribute(TransactionAttributeType.REQUIRED)
public class SrqResponderInlineRequired implements SrqReceiveListener {
    /** The activation's listenPort. */
    public static final int PORT = 7497;

    @Override
    public void onReceive(ReceiveCompletion completion) {
        SrqResponderRequired.echo(completion);
    }
}
