package io.rdma.srq.bench;

import jakarta.ejb.AsyncResult;
import jakarta.ejb.Asynchronous;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;

import javax.naming.InitialContext;
import java.util.concurrent.Future;

/**
 * One sender of a JMS throughput case: its own connection from {@code java:/ConnectionFactory} (the
 * in-VM factory of standalone-full, not pooled: a producer's messages go out as they are sent) or
 * {@link ServerB#jms()} (A's remote factory to server B), a
 * non-transacted session, a NON_PERSISTENT producer; the same message object sent again and again.
 */
@Stateless
public class JmsSender {
    /**
     * @param factory  a non-pooled connection factory
     * @param queue    the sink queue's JNDI name
     * @param messages messages to send
     * @param size     bytes per message (a BytesMessage body)
     * @param sent     incremented every {@link Sends#REPORT_EVERY} messages (and at the end)
     * @return messages sent
     * @throws Exception from JMS or JNDI
     */
    @Asynchronous
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public Future<Long> send(ConnectionFactory factory, String queue, long messages, int size, SendProgress sent) throws Exception {
        Queue destination = InitialContext.doLookup(queue);
        try (Connection connection = factory.createConnection();
             Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
             MessageProducer producer = session.createProducer(destination)) {
            producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            BytesMessage message = session.createBytesMessage();
            message.writeBytes(new byte[size]);
            Sends sends = new Sends(sent);
            for (long i = 0; i < messages; i++) {
                producer.send(message);
                sends.one();
            }
            sends.done();
        }
        return new AsyncResult<>(messages);
    }
}
