package io.rdma.srq.demo;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import io.rdma.srq.api.VerbsException;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

/**
 * The request/reply phase's responder: answers every request with its own bytes
 * ({@link ReceiveCompletion#reply}, which echoes the request's imm_data, the caller's call number).
 * Listens on {@value DemoReceiver#LISTEN_ADDRESS}:{@value #LISTEN_PORT}; no transaction (NOT_SUPPORTED).
 * maxConcurrency 1: the activation's poller (a Work of the container's WorkManager) invokes it
 * through the container on its own thread, without a hand-off to a pool thread per request (the
 * lowest latency; the requests of several callers are answered one after another).
 */
@MessageDriven(name = "DemoResponder", messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "auto"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = DemoReceiver.LISTEN_ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + DemoResponder.LISTEN_PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = "demo-responder"),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "" + DemoReceiver.BUFFER_SIZE),
        @ActivationConfigProperty(propertyName = "pollMode", propertyValue = "adaptive"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "1")})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class DemoResponder implements SrqReceiveListener {
    /** The responder's rdma_cm port. */
    public static final int LISTEN_PORT = 7472;

    @Override
    public void onReceive(ReceiveCompletion completion) {
        try {
            completion.reply(completion.payload());
        } catch (VerbsException e) {
            throw new IllegalStateException(e);
        }
    }
}
