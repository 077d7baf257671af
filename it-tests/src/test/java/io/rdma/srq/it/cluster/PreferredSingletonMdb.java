package io.rdma.srq.it.cluster;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;


/**
 * A cluster-singleton provider of {@value #SERVICE} elected by the singleton policy {@value #POLICY}
 * ({@code singletonPolicy}: a simple election preferring node-2, so node 2 is the primary while it is a
 * candidate); answers each request with the request + {@code "@"} + this node's name.
 */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "fabric"),
        @ActivationConfigProperty(propertyName = "device", propertyValue = "tcp"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = "127.0.0.1"),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "0"),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = "singleton-preferred-mdb"),
        @ActivationConfigProperty(propertyName = "serviceName", propertyValue = PreferredSingletonMdb.SERVICE),
        @ActivationConfigProperty(propertyName = "clusterSingleton", propertyValue = "true"),
        @ActivationConfigProperty(propertyName = "singletonPolicy", propertyValue = PreferredSingletonMdb.POLICY),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "4")})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class PreferredSingletonMdb implements SrqReceiveListener {
    /** The service name, and the singleton's. */
    public static final String SERVICE = "singleton-preferred";
    /** The singleton policy it names: simple election preferring node-2 (the IT adds it on both nodes). */
    public static final String POLICY = "prefer-node-2";

    @Override
    public void onReceive(ReceiveCompletion completion) {
        NodeEcho.answer(completion);
    }
}
