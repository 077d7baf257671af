package io.rdma.srq.it.twoservers;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

import java.nio.ByteBuffer;

/**
 * The responder on the second server: listens on {@link TwoServers#ADDRESS}:{@link TwoServers#PORT} over libfabric's tcp
 * (provider fabric) and answers each request with {@code "re:"} + the request.
 */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "fabric"),
        @ActivationConfigProperty(propertyName = "device", propertyValue = "tcp"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = TwoServers.ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + TwoServers.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = "two-server-reply"),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "4")})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class FabricReplyMdb implements SrqReceiveListener {
    @Override
    public void onReceive(ReceiveCompletion completion) {
        ByteBuffer reply = ByteBuffer.allocate(3 + completion.length()).put("re:".getBytes()).put(completion.payload());
        completion.reply(reply.flip());
    }
}
