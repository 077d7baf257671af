package io.rdma.srq.bench;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;

import javax.naming.InitialContext;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;

/**
 * JMS request/reply as WildFly users write it: per caller thread a connection, a temporary reply
 * queue and its consumer; each request a NON_PERSISTENT BytesMessage with JMSReplyTo and a new
 * JMSCorrelationID; the reply is the consumer's next message with that correlation id (one call at a
 * time per caller, so an earlier id can only be a reply that came after its call gave up: skipped).
 */
public final class JmsRoundTrip implements RoundTrip {
    private final String label;
    private final Callable<ConnectionFactory> factory;
    private final String requestQueue;

    /**
     * @param label        the case name
     * @param factory      gives a non-pooled connection factory (java:/ConnectionFactory, in-VM; or
     *                     {@link ServerB#jms()}, remote), asked at each {@link #open}
     * @param requestQueue the responder MDB's queue (JNDI name, looked up here; the queue of that name
     *                     on the factory's server is the one used)
     */
    public JmsRoundTrip(String label, Callable<ConnectionFactory> factory, String requestQueue) {
        this.label = label;
        this.factory = factory;
        this.requestQueue = requestQueue;
    }

    @Override
    public String label() {
        return label;
    }

    @Override
    public Caller open(int size) throws Exception {
        Queue destination = InitialContext.doLookup(requestQueue);
        Connection connection = factory.call().createConnection();
        try {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            TemporaryQueue replies = session.createTemporaryQueue();
            MessageConsumer consumer = session.createConsumer(replies);
            MessageProducer producer = session.createProducer(destination);
            producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            BytesMessage request = session.createBytesMessage();
            request.writeBytes(new byte[size]);
            request.setJMSReplyTo(replies);
            connection.start();
            return new JmsCaller(connection, consumer, producer, request);
        } catch (Exception e) {
            connection.close();
            throw e;
        }
    }

    private static final class JmsCaller implements Caller {
        private final Connection connection;
        private final MessageConsumer consumer;
        private final MessageProducer producer;
        private final BytesMessage request;
        private long next;

        JmsCaller(Connection connection, MessageConsumer consumer, MessageProducer producer, BytesMessage request) {
            this.connection = connection;
            this.consumer = consumer;
            this.producer = producer;
            this.request = request;
        }

        @Override
        public void call() throws Exception {
            String id = Long.toString(++next);
            request.setJMSCorrelationID(id);
            producer.send(request);
            long deadline = System.currentTimeMillis() + RoundTrips.REPLY_TIMEOUT_MILLIS;
            for (long left = RoundTrips.REPLY_TIMEOUT_MILLIS; left > 0; left = deadline - System.currentTimeMillis()) {
                Message reply = consumer.receive(left);
                if (reply != null && id.equals(reply.getJMSCorrelationID())) {
                    return;
                }
            }
            throw new TimeoutException("no reply to " + id + " within " + RoundTrips.REPLY_TIMEOUT_MILLIS + " ms");
        }

        @Override
        public void close() throws Exception {
            connection.close();
        }
    }
}
