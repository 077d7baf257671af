package io.rdma.srq.bench;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import io.rdma.srq.api.VerbsException;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJBException;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

/**
 * The responder of the pooled-SRQ request/reply cases under CMT REQUIRED: echoes each request with
 * {@link ReceiveCompletion#reply(java.nio.ByteBuffer)} (which echoes the request's immediate data, the
 * call's correlation). Listens on {@value #PORT}; its callers are {@link SrqRoundTrip}'s.
 */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = ThroughputCase.SRQ_ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + SrqResponderRequired.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = "bench-rr-required"),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "16"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "4096"),
        @ActivationConfigProperty(propertyName = "replyBufferSize", propertyValue = "4096"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "8")})
@TransactionAttribute(TransactionAttributeType.REQUIRED)
public class SrqResponderRequired implements SrqReceiveListener {
    /** The activation's listenPort. */
    public static final int PORT = 7493;

    @Override
    public void onReceive(ReceiveCompletion completion) {
        echo(completion);
    }

    static void echo(ReceiveCompletion completion) {
        try {
            completion.reply(completion.payload());
        } catch (VerbsException e) {
            throw new EJBException(e);
        }
    }
}
