package io.rdma.srq.bench;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * The JMS responder under NOT_SUPPORTED: the reply goes out through the injected JMSContext
 * (JmsXA, no transaction), the request acknowledged on its own. Bound to activemq-ra.rar in
 * jboss-ejb3.xml.
 */
@MessageDriven(name = "JmsResponderNotSupported", activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = JmsResponderNotSupported.QUEUE),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "8")})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class JmsResponderNotSupported implements MessageListener {
    /** The request queue's JNDI name (bench.cli). */
    public static final String QUEUE = "java:/jms/bench/RequestNotSupported";

    @Inject
    JMSContext context;

    @Override
    public void onMessage(Message request) {
        Responder.reply(context, request);
    }
}
