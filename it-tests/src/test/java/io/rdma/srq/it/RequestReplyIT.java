package io.rdma.srq.it;

import io.rdma.srq.it.mdb.Caller;
import io.rdma.srq.it.mdb.Messages;
import io.rdma.srq.it.mdb.ReplyMdb;
import jakarta.ejb.EJB;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * EJB → MDB → EJB in WildFly: a {@code @Stateless} bean with {@code @Inject SrqConnectionFactory}
 * calls an MDB of the adapter over its pooled connection's pooled peer and returns the MDB's reply;
 * a thousand calls in a row each get their own reply.
 */
@ExtendWith(ArquillianExtension.class)
public class RequestReplyIT {

    @Deployment
    public static WebArchive app() {
        return Apps.war("request-reply.war", true).addClasses(ReplyMdb.class, Caller.class, Messages.class);
    }

    @EJB
    private Caller caller;

    @Test
    public void aStatelessBeanCallsAnMdbAndReturnsItsReply() throws Exception {
        assertEquals("re:hello", new String(caller.call("hello".getBytes(StandardCharsets.US_ASCII)),
                StandardCharsets.US_ASCII));
        for (int i = 0; i < 1000; i++) {
            String request = "call " + i;
            assertEquals("re:" + request, new String(caller.call(request.getBytes(StandardCharsets.US_ASCII)),
                    StandardCharsets.US_ASCII));
        }
    }
}
