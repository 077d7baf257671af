package io.rdma.srq.it.twoservers;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The subscriber on the second server: an activation that does not listen and keeps
 * {@code connectCount} 2 connections to the first server's publisher
 * ({@link TwoServers#ADDRESS}:{@link TwoServers#PUBLISHER_PORT}, provider fabric), retrying every
 * 200 ms until it listens. Records each message's immediate data (the publisher's sequence number)
 * and the QP it came on.
 */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "fabric"),
        @ActivationConfigProperty(propertyName = "device", propertyValue = "tcp"),
        @ActivationConfigProperty(propertyName = "listen", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "connectTo", propertyValue = TwoServers.ADDRESS + ":" + TwoServers.PUBLISHER_PORT),
        @ActivationConfigProperty(propertyName = "connectCount", propertyValue = "2"),
        @ActivationConfigProperty(propertyName = "reconnectInterval", propertyValue = "200"),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = "two-server-subscriber"),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "4")})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class SubscriberMdb implements SrqReceiveListener {
    /** Sequence numbers received (immediate data); a repeat is counted in {@link #REPEATS}. */
    static final Set<Integer> RECEIVED = ConcurrentHashMap.newKeySet();
    /** Messages per QP they came on. */
    static final Map<Integer, Integer> BY_QP = new ConcurrentHashMap<>();
    /** Sequence numbers received more than once. */
    static final Set<Integer> REPEATS = ConcurrentHashMap.newKeySet();

    @Override
    public void onReceive(ReceiveCompletion completion) {
        if (!RECEIVED.add(completion.immData())) {
            REPEATS.add(completion.immData());
        }
        BY_QP.merge(completion.qpNum(), 1, Integer::sum);
    }
}
