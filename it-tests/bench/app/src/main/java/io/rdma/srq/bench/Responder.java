package io.rdma.srq.bench;

import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;

/** What both JMS responder MDBs do: echo the request's body to its JMSReplyTo with its correlation id. */
final class Responder {
    private Responder() {
    }

    static void reply(JMSContext context, Message request) {
        try {
            context.createProducer().setDeliveryMode(DeliveryMode.NON_PERSISTENT)
                    .setJMSCorrelationID(request.getJMSCorrelationID())
                    .send(request.getJMSReplyTo(), request.getBody(byte[].class));
        } catch (JMSException e) {
            throw new JMSRuntimeException(e.getMessage(), e.getErrorCode(), e);
        }
    }
}
