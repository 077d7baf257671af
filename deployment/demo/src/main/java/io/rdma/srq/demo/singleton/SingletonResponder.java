package io.rdma.srq.demo.singleton;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

/**
 * The main job's cluster singleton ({@code run-demo.sh --cluster}), deployed as
 * {@code srq-demo-singleton.war} on both servers: {@code clusterSingleton=true}, so only the server
 * WildFly's singleton policy elects listens (on 127.0.0.1, a free port) and publishes the service
 * {@value #SERVICE}; the other stands by and takes over when the first leaves. Answers every request
 * with its own bytes.
 */
@MessageDriven(name = "SingletonResponder", messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "fabric"),
        @ActivationConfigProperty(propertyName = "device", propertyValue = "tcp"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = "127.0.0.1"),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "0"),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = "demo-singleton-responder"),
        @ActivationConfigProperty(propertyName = "serviceName", propertyValue = SingletonResponder.SERVICE),
        @ActivationConfigProperty(propertyName = "clusterSingleton", propertyValue = "true"),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "4096"),
        @ActivationConfigProperty(propertyName = "pollMode", propertyValue = "adaptive"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "1")})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class SingletonResponder implements SrqReceiveListener {
    /** The service (and singleton) name. */
    public static final String SERVICE = "demo-singleton";

    @Override
    public void onReceive(ReceiveCompletion completion) {
        completion.reply(completion.payload());
    }
}
