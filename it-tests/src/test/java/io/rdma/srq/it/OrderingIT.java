package io.rdma.srq.it;

import io.rdma.srq.it.mdb.Messages;
import io.rdma.srq.it.mdb.OrderedMdb;
import io.rdma.srq.it.mdb.Sender;
import io.rdma.srq.it.mdb.Tally;
import jakarta.ejb.EJB;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ordering=connection in WildFly: an MDB with maxConcurrency 8 fed over 8 connections sees each
 * connection's messages in the order they were sent, never two of one connection at once, and
 * connections in parallel.
 */
@ExtendWith(ArquillianExtension.class)
public class OrderingIT {
    private static final int MESSAGES = 16_000;

    @Deployment
    public static WebArchive app() {
        return Apps.war("ordering.war", true)
                .addClasses(OrderedMdb.class, Sender.class, Tally.class, Tally.Summary.class, Messages.class);
    }

    @EJB
    private Sender sender;

    @Test
    public void eachConnectionsMessagesArriveInOrderAndNeverConcurrently() throws Exception {
        Tally.reset();
        OrderedMdb.reset();
        assertEquals(MESSAGES, sender.send(OrderedMdb.PORT, OrderedMdb.CONNECTIONS, MESSAGES, OrderedMdb.MARKER));
        Tally.Summary s = Tally.of(OrderedMdb.NAME).await(MESSAGES, Duration.ofSeconds(60));
        assertEquals(MESSAGES, s.total(), s.toString());
        assertEquals(0, s.missing() + s.duplicated() + s.problems(), s.toString());
        assertEquals(List.of(), OrderedMdb.VIOLATIONS.subList(0, Math.min(10, OrderedMdb.VIOLATIONS.size())));
        assertEquals(OrderedMdb.CONNECTIONS, OrderedMdb.LAST.size(), "eight connections");
        assertTrue(OrderedMdb.MAX_PARALLEL.get() > 1, "connections delivered in parallel: "
                + OrderedMdb.MAX_PARALLEL.get());
        assertTrue(OrderedMdb.MAX_PARALLEL.get() <= 8, "at most maxConcurrency: " + OrderedMdb.MAX_PARALLEL.get());
    }
}
