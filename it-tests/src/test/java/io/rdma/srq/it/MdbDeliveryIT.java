package io.rdma.srq.it;

import io.rdma.srq.it.mdb.DeliveryMdb;
import io.rdma.srq.it.mdb.Messages;
import io.rdma.srq.it.mdb.Sender;
import io.rdma.srq.it.mdb.Tally;
import jakarta.ejb.EJB;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An MDB on the adapter gets every message a sender in the same server sends through
 * {@code SrqConnection.connect} / {@code SrqPeer}, exactly once, intact, over every connection.
 */
@ExtendWith(ArquillianExtension.class)
public class MdbDeliveryIT {
    private static final int MESSAGES = 20_000;
    private static final int CONNECTIONS = 4;

    @Deployment
    public static WebArchive app() {
        return Apps.war("mdb-delivery.war", true)
                .addClasses(DeliveryMdb.class, Sender.class, Tally.class, Tally.Summary.class, Messages.class);
    }

    @EJB
    private Sender sender;

    @Test
    public void everyMessageSentIsDeliveredExactlyOnce() throws Exception {
        Tally.reset();
        assertEquals(MESSAGES, sender.send(DeliveryMdb.PORT, CONNECTIONS, MESSAGES, DeliveryMdb.MARKER),
                "every send completed");
        Tally.Summary s = Tally.of(DeliveryMdb.NAME).await(MESSAGES, Duration.ofSeconds(30));
        assertEquals(MESSAGES, s.total(), "delivered: " + s);
        assertEquals(0, s.missing(), "missing: " + s);
        assertEquals(0, s.duplicated(), "delivered twice: " + s);
        assertEquals(0, s.problems(), "malformed: " + s);
        assertEquals(CONNECTIONS, s.connections(), "the messages arrived over every connection: " + s);
    }
}
