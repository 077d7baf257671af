package io.rdma.srq.it.mdb;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import io.rdma.srq.api.VerbsException;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

import java.nio.ByteBuffer;

/**
 * The responder of {@link Caller}: answers each request with {@code "re:"} + the request
 * ({@link ReceiveCompletion#reply}, which echoes the request's imm_data: the call's number).
 */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = Messages.ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + ReplyMdb.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = "reply"),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "4")})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class ReplyMdb implements SrqReceiveListener {
    /** listenPort. */
    public static final int PORT = 7491;

    @Override
    public void onReceive(ReceiveCompletion completion) {
        ByteBuffer reply = ByteBuffer.allocate(3 + completion.length()).put("re:".getBytes()).put(completion.payload());
        try {
            completion.reply(reply.flip());
        } catch (VerbsException e) {
            throw new IllegalStateException(e);
        }
    }
}
