package io.rdma.srq.it;

import io.rdma.srq.api.SrqLimitReached;
import io.rdma.srq.it.mdb.LimitObserver;
import io.rdma.srq.it.mdb.Messages;
import io.rdma.srq.it.mdb.Sender;
import io.rdma.srq.it.mdb.SlowMdb;
import io.rdma.srq.it.mdb.Tally;
import jakarta.ejb.EJB;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A burst to a slow MDB on a small SRQ (16 WRs posted, limit 8, one endpoint) drives the SRQ below its
 * limit: the application's CDI observers ({@code @Observes} and {@code @ObservesAsync}) see
 * {@link SrqLimitReached} naming the activation's SRQ, and still every message is delivered once.
 */
@ExtendWith(ArquillianExtension.class)
public class LimitEventIT {
    private static final int MESSAGES = 200;

    @Deployment
    public static WebArchive app() {
        return Apps.war("limit-event.war", true)
                .addClasses(SlowMdb.class, LimitObserver.class, Sender.class, Tally.class, Tally.Summary.class,
                        Messages.class);
    }

    @EJB
    private Sender sender;

    @Test
    public void burstToASlowMdbRaisesSrqLimitReachedInTheApplication() throws Exception {
        Tally.reset();
        LimitObserver.SYNC.clear();
        LimitObserver.ASYNC.clear();
        assertEquals(MESSAGES, sender.send(SlowMdb.PORT, 1, MESSAGES, SlowMdb.MARKER));
        Tally.Summary s = Tally.of(SlowMdb.NAME).await(MESSAGES, Duration.ofSeconds(30));
        assertEquals(MESSAGES, s.total(), s.toString());
        assertEquals(0, s.missing() + s.duplicated() + s.problems(), s.toString());

        assertFalse(LimitObserver.SYNC.isEmpty(), "@Observes SrqLimitReached saw no event");
        SrqLimitReached e = LimitObserver.SYNC.getFirst();
        assertEquals(SlowMdb.NAME, e.srqName(), e.toString());
        assertEquals("soft_rxe0", e.device(), e.toString());
        assertEquals(SlowMdb.LIMIT, e.limit(), e.toString());
        assertTrue(e.outstanding() >= 0 && e.outstanding() <= 16, "outstanding within the fill level: " + e);
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (LimitObserver.ASYNC.size() < LimitObserver.SYNC.size() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(LimitObserver.SYNC.size(), LimitObserver.ASYNC.size(),
                "@ObservesAsync sees each event too: " + LimitObserver.ASYNC);
    }
}
