package io.rdma.srq.it.cluster;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;


/**
 * A provider of the service {@value #SERVICE} on every node it is deployed on: listens on
 * 127.0.0.1 at a free port over libfabric's tcp (provider fabric), published in the cluster's
 * registrar, and answers each request with the request + {@code "@"} + this node's name.
 */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "fabric"),
        @ActivationConfigProperty(propertyName = "device", propertyValue = "tcp"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = "127.0.0.1"),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "0"),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = "cluster-echo-mdb"),
        @ActivationConfigProperty(propertyName = "serviceName", propertyValue = ClusterEchoMdb.SERVICE),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "4")})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class ClusterEchoMdb implements SrqReceiveListener {
    /** The service name. */
    public static final String SERVICE = "cluster-echo";

    @Override
    public void onReceive(ReceiveCompletion completion) {
        NodeEcho.answer(completion);
    }
}
