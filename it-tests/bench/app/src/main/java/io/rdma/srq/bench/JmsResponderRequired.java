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
 * The JMS responder under CMT REQUIRED: the reply goes out through the injected (JmsXA, enlisted)
 * JMSContext in the transaction that also consumes the request. Bound to activemq-ra.rar in
 * jboss-ejb3.xml.
 */
@MessageDriven(name = "JmsResponderRequired", activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = JmsResponderRequired.QUEUE),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "8")})
@TransactionAttribute(TransactionAttributeType.REQUIRED)
public class JmsResponderRequired implements MessageListener {
    /** The request queue's JNDI name (bench.cli). */
    public static final String QUEUE = "java:/jms/bench/RequestRequired";

    @Inject
    JMSContext context;

    @Override
    public void onMessage(Message request) {
        Responder.reply(context, request);
    }
}
