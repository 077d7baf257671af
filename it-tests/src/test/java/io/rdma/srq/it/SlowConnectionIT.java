package io.rdma.srq.it;

import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.it.mdb.Messages;
import io.rdma.srq.it.mdb.Sender;
import io.rdma.srq.it.mdb.SlowConnectionMdb;
import io.rdma.srq.it.mdb.Tally;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One connection whose MDB work is 100 times slower than the others' (ordering=connection,
 * maxConcurrency 8, {@value #PER_CONNECTION} messages on each of 8 connections): the seven others are
 * all delivered while the slow one still has most of its backlog, i.e. they keep their rate instead of
 * waiting behind it; then the slow one's messages are delivered too, in order, once each. The
 * assertion is on what is left, not on a time (the times are printed).
 */
@ExtendWith(ArquillianExtension.class)
public class SlowConnectionIT {
    private static final int PER_CONNECTION = 160;
    private static final int MESSAGES = PER_CONNECTION * SlowConnectionMdb.CONNECTIONS;

    @Deployment
    public static WebArchive app() {
        return Apps.war("slow-connection.war", true)
                .addClasses(SlowConnectionMdb.class, Sender.class, Tally.class, Tally.Summary.class, Messages.class);
    }

    @EJB
    private Sender sender;

    @Resource(lookup = "java:/eis/SrqConnectionFactory")
    private SrqConnectionFactory factory;

    @Test
    public void theOtherConnectionsFinishWhileTheSlowOneStillHasABacklog() throws Exception {
        Tally.reset();
        SlowConnectionMdb.reset();
        int fastMessages = MESSAGES - PER_CONNECTION;
        long t0 = System.nanoTime();
        assertEquals(MESSAGES, sender.send(SlowConnectionMdb.PORT, SlowConnectionMdb.CONNECTIONS, MESSAGES,
                SlowConnectionMdb.MARKER));
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (SlowConnectionMdb.FAST.get() < fastMessages && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        long slowWhenFastDone = SlowConnectionMdb.SLOW.get();
        long fastMs = (System.nanoTime() - t0) / 1_000_000;
        Tally.Summary s = Tally.of(SlowConnectionMdb.NAME).await(MESSAGES, Duration.ofSeconds(30));
        long allMs = (System.nanoTime() - t0) / 1_000_000;
        ActivationStatistics st = factory.activationStatistics().stream()
                .filter(a -> a.srqName().equals(SlowConnectionMdb.NAME)).findFirst().orElseThrow();
        System.out.printf("7 connections of %d messages at %d µs each done in %d ms, the slow one (%d µs each) had "
                        + "%d of %d delivered then; all done in %d ms; %s%n", PER_CONNECTION, SlowConnectionMdb.FAST_MICROS,
                fastMs, SlowConnectionMdb.SLOW_MICROS, slowWhenFastDone, PER_CONNECTION, allMs, st);

        assertEquals(fastMessages, SlowConnectionMdb.FAST.get(), "the fast connections were all delivered");
        assertTrue(slowWhenFastDone < PER_CONNECTION * 3 / 4, "the others did not wait for the slow connection: it "
                + "had " + slowWhenFastDone + " of " + PER_CONNECTION + " delivered when they were done");
        assertEquals(MESSAGES, s.total(), "then the slow one's too: " + s);
        assertEquals(0, s.missing() + s.duplicated() + s.problems(), s.toString());
        assertEquals(0, st.slowDisconnects(), "the slow connection stayed within its bounds: " + st);
    }
}
