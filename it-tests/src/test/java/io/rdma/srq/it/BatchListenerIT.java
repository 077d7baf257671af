package io.rdma.srq.it;

import io.rdma.srq.it.mdb.BatchMdb;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An MDB implementing SrqBatchListener in WildFly gets every message once, up to maxBatchSize a call. */
@ExtendWith(ArquillianExtension.class)
public class BatchListenerIT {
    private static final int MESSAGES = 20_000;
    private static final int CONNECTIONS = 4;

    @Deployment
    public static WebArchive app() {
        return Apps.war("batch-listener.war", true)
                .addClasses(BatchMdb.class, Sender.class, Tally.class, Tally.Summary.class, Messages.class);
    }

    @EJB
    private Sender sender;

    @Test
    public void everyMessageIsDeliveredOnceInBatchesOfAtMostMaxBatchSize() throws Exception {
        Tally.reset();
        assertEquals(MESSAGES, sender.send(BatchMdb.PORT, CONNECTIONS, MESSAGES, BatchMdb.MARKER),
                "every send completed");
        Tally.Summary s = Tally.of(BatchMdb.NAME).await(MESSAGES, Duration.ofSeconds(30));
        assertEquals(MESSAGES, s.total(), "delivered: " + s);
        assertEquals(0, s.missing(), "missing: " + s);
        assertEquals(0, s.duplicated(), "delivered twice: " + s);
        assertEquals(0, s.problems(), "malformed: " + s);
        assertTrue(BatchMdb.LARGEST.get() <= BatchMdb.MAX_BATCH, "at most maxBatchSize a call: "
                + BatchMdb.LARGEST.get());
        assertTrue(BatchMdb.CALLS.get() < MESSAGES, "fewer calls than messages: " + BatchMdb.CALLS.get());
    }
}
