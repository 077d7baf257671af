package io.rdma.srq.bench;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * (c) a no-op MDB on the embedded Artemis under NOT_SUPPORTED (no transaction; the session
 * acknowledges on its own). Bound to activemq-ra.rar in jboss-ejb3.xml: configure.cli makes the
 * adapter the ejb3 default.
 */
@MessageDriven(name = "JmsSinkNotSupported", activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = JmsSinkNotSupported.QUEUE),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "8")})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class JmsSinkNotSupported implements MessageListener {
    /** The queue's JNDI name (bench.cli). */
    public static final String QUEUE = "java:/jms/bench/SinkNotSupported";

    @Override
    public void onMessage(Message message) {
        ThroughputCase.JMS_NOT_SUPPORTED.deliveries().delivered();
    }
}
