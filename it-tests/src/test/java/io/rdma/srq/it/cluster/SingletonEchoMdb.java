package io.rdma.srq.it.cluster;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;


/**
 * A cluster-singleton provider of {@value #SERVICE} ({@code clusterSingleton=true}): deployed on every
 * node, open and published only on the node WildFly's singleton policy elects; answers each request
 * with the request + {@code "@"} + this node's name.
 */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "fabric"),
        @ActivationConfigProperty(propertyName = "device", propertyValue = "tcp"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = "127.0.0.1"),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "0"),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = "singleton-echo-mdb"),
        @ActivationConfigProperty(propertyName = "serviceName", propertyValue = SingletonEchoMdb.SERVICE),
        @ActivationConfigProperty(propertyName = "clusterSingleton", propertyValue = "true"),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "4")})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class SingletonEchoMdb implements SrqReceiveListener {
    /** The service name, and the singleton's. */
    public static final String SERVICE = "singleton-echo";

    @Override
    public void onReceive(ReceiveCompletion completion) {
        NodeEcho.answer(completion);
    }
}
