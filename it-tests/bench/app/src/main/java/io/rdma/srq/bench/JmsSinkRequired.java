package io.rdma.srq.bench;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * (c) a no-op MDB on the embedded Artemis under CMT REQUIRED (its JMS session enlisted in a JTA
 * transaction per message). Bound to activemq-ra.rar in jboss-ejb3.xml: configure.cli makes the
 * adapter the ejb3 default.
 */
@MessageDriven(name = "JmsSinkRequired", activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = JmsSinkRequired.QUEUE),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "8")})
@TransactionAttribute(TransactionAttributeType.REQUIRED)
public class JmsSinkRequired implements MessageListener {
    /** The queue's JNDI name (bench.cli). */
    public static final String QUEUE = "java:/jms/bench/SinkRequired";

    @Override
    public void onMessage(Message message) {
        ThroughputCase.JMS_REQUIRED.deliveries().delivered();
    }
}
