package io.rdma.srq.it;

import io.rdma.srq.it.mdb.BacklogMdb;
import io.rdma.srq.it.mdb.FirstFailuresSink;
import io.rdma.srq.it.mdb.Messages;
import io.rdma.srq.it.mdb.PauseResumeMdb;
import io.rdma.srq.it.mdb.PauseTimeoutMdb;
import io.rdma.srq.it.mdb.Pauses;
import io.rdma.srq.it.mdb.StreamSender;
import io.rdma.srq.it.mdb.Tally;
import io.rdma.srq.it.mdb.TrafficServlet;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.as.arquillian.container.ManagementClient;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What an operator does to an MDB's delivery from jboss-cli, with a sender streaming on its own
 * thread (one message at a time, each sequence number once: {@link StreamSender}):
 * <ul>
 *   <li>{@code :stop-delivery} mid-stream with a slow MDB whose backlog outlasts its drainTimeout, then
 *       {@code :start-delivery}: every acknowledged message is delivered or counted undelivered (the
 *       WARN SRQRA0300 names the number), none twice, and delivery resumes;</li>
 *   <li>a pause after maxSequentialDeliveryFailures with pauseTimeout 0 holds until the operator's
 *       {@code :stop-delivery}, {@code :start-delivery} (the way to resume it: a fresh activation);</li>
 *   <li>a pause with a pauseTimeout ends by itself.</li>
 * </ul>
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
public class DeliveryControlIT {
    private static final String APP = "delivery-control";
    private static final String DEPLOYMENT = APP + ".war";
    private static final Pattern UNDELIVERED = Pattern.compile("activation (\\S+): (\\d+) message\\(s\\) acknowledged");

    @Deployment(name = APP, testable = false)
    public static WebArchive app() {
        return Apps.war(DEPLOYMENT, false).addClasses(BacklogMdb.class, FirstFailuresSink.class, PauseResumeMdb.class,
                PauseTimeoutMdb.class, Pauses.class, StreamSender.class, TrafficServlet.class, Tally.class,
                Tally.Summary.class, Messages.class);
    }

    @ArquillianResource
    private ManagementClient management;

    @Test
    public void stopDeliveryWithABacklogCountsWhatItCannotDeliverAndStartDeliveryResumes() throws Exception {
        Traffic traffic = new Traffic(management, APP);
        traffic.start(Traffic.stream(BacklogMdb.NAME, BacklogMdb.PORT, BacklogMdb.MARKER));
        traffic.awaitAcked(1, null, 2 * BacklogMdb.BACKLOG); // the sender is ahead: the CQ holds a backlog
        long backlog = traffic.acked().getFirst() - traffic.delivered().getFirst();

        long t0 = System.currentTimeMillis();
        Management.ok(management, Management.mdbOperation(DEPLOYMENT, "BacklogMdb", "stop-delivery"));
        long stopMs = System.currentTimeMillis() - t0;
        List<Integer> atStop = traffic.acked();
        long deliveredAtStop = traffic.delivered().getFirst();
        Management.ok(management, Management.mdbOperation(DEPLOYMENT, "BacklogMdb", "start-delivery"));
        traffic.awaitAcked(1, atStop, 50); // the sender connected again and is acknowledged again
        String report = traffic.stop();
        long undelivered = undeliveredLogged(BacklogMdb.NAME);
        System.out.printf("stop-delivery with a backlog of about %d messages (%d ms each, drainTimeout %d ms) took %d ms;"
                + " %d counted undelivered (SRQRA0300)%n%s%n", backlog, BacklogMdb.MILLIS, BacklogMdb.DRAIN_MS, stopMs,
                undelivered, report);

        assertTrue(backlog > BacklogMdb.BACKLOG / 2, "a backlog when stopped: " + backlog);
        assertTrue(undelivered > 0, "the backlog outlasted drainTimeout, so some was counted undelivered: " + report);
        long lost = Traffic.number(report, "lost");
        long inDoubt = Traffic.number(report, "inDoubt");
        assertTrue(lost <= undelivered && undelivered <= lost + inDoubt, "acknowledged = delivered + counted "
                + "undelivered (up to the messages in doubt at the stop): undelivered " + undelivered + ", " + report);
        assertEquals(0, Traffic.number(report, "duplicated"), report);
        assertEquals(0, Traffic.number(report, "foreign"), report);
        assertEquals(0, Traffic.number(report, "problems"), report);
        assertTrue(Traffic.number(report, "delivered") > deliveredAtStop, "delivered again after start-delivery: "
                + deliveredAtStop + " at the stop, " + report);
    }

    @Test
    public void aPauseWithoutTimeoutHoldsUntilTheOperatorStopsAndStartsDelivery() throws Exception {
        Traffic traffic = new Traffic(management, APP);
        traffic.start(Traffic.stream(PauseResumeMdb.NAME, PauseResumeMdb.PORT, PauseResumeMdb.MARKER));
        // the statistics count a batch when it returns: the batch under way when delivery paused is finished
        String paused = traffic.awaitStats(PauseResumeMdb.NAME, s -> s.contains("paused=true")
                && Traffic.number(s, "deadLettered") >= FirstFailuresSink.FAILURES, Duration.ofSeconds(30));
        assertEquals(1, Traffic.number(paused, "pauses"), paused);
        assertEquals(FirstFailuresSink.FAILURES, Traffic.number(paused, "deadLettered"), paused);
        long deliveredPaused = awaitIdle(traffic);
        Thread.sleep(1_000); // pauseTimeout 0: nothing ends the pause by itself
        String still = traffic.stats(PauseResumeMdb.NAME);
        assertEquals("true", Traffic.word(still, "paused"), still);
        assertEquals(deliveredPaused, traffic.delivered().getFirst(), "nothing delivered while paused");

        Management.ok(management, Management.mdbOperation(DEPLOYMENT, "PauseResumeMdb", "stop-delivery"));
        Management.ok(management, Management.mdbOperation(DEPLOYMENT, "PauseResumeMdb", "start-delivery"));
        String resumed = traffic.awaitStats(PauseResumeMdb.NAME,
                s -> !s.equals("none") && Traffic.number(s, "delivered") >= 50, Duration.ofSeconds(30));
        String report = traffic.stop();
        long undelivered = undeliveredLogged(PauseResumeMdb.NAME);
        System.out.printf("paused: %s%nresumed by stop-delivery, start-delivery: %s%n%d counted undelivered%n%s%n",
                paused, resumed, undelivered, report);

        assertEquals("false", Traffic.word(resumed, "paused"), resumed);
        assertEquals(0, Traffic.number(resumed, "pauses"), "a fresh activation: " + resumed);
        long lost = Traffic.number(report, "lost") - FirstFailuresSink.FAILURES; // the dead-lettered ones
        long inDoubt = Traffic.number(report, "inDoubt");
        assertTrue(lost <= undelivered && undelivered <= lost + inDoubt, "acknowledged = delivered + dead-lettered + "
                + "counted undelivered: undelivered " + undelivered + ", " + report);
        assertEquals(0, Traffic.number(report, "duplicated"), report);
        assertEquals(0, Traffic.number(report, "foreign"), report);
    }

    @Test
    public void aPauseWithATimeoutEndsByItself() throws Exception {
        Traffic traffic = new Traffic(management, APP);
        traffic.start(Traffic.stream(PauseTimeoutMdb.NAME, PauseTimeoutMdb.PORT, PauseTimeoutMdb.MARKER));
        traffic.awaitStats(PauseTimeoutMdb.NAME, s -> Traffic.number(s, "pauses") == 1, Duration.ofSeconds(30));
        String after = traffic.awaitStats(PauseTimeoutMdb.NAME,
                s -> s.contains("paused=false") && Traffic.number(s, "delivered") >= 50, Duration.ofSeconds(30));
        String report = traffic.stop();
        System.out.printf("after pauseTimeout %d ms: %s%n%s%n", PauseTimeoutMdb.PAUSE_MS, after, report);

        assertEquals(1, Traffic.number(after, "pauses"), after);
        assertEquals(FirstFailuresSink.FAILURES, Traffic.number(after, "deadLettered"), after);
        assertEquals(FirstFailuresSink.FAILURES, Traffic.number(report, "lost"), "only the dead-lettered: " + report);
        assertEquals(0, Traffic.number(report, "duplicated"), report);
        assertEquals(0, Traffic.number(report, "foreign"), report);
    }

    /** @return what the MDB recorded once that stopped growing for 300 ms */
    private static long awaitIdle(Traffic traffic) throws Exception {
        long before;
        long now = traffic.delivered().getFirst();
        do {
            before = now;
            Thread.sleep(300);
            now = traffic.delivered().getFirst();
        } while (now != before);
        return now;
    }

    /** @return the messages SRQRA0300 counted undelivered for that activation, over the server's recent log */
    private long undeliveredLogged(String srqName) throws Exception {
        long n = 0;
        for (String line : Management.logLines(management, "SRQRA0300")) {
            Matcher m = UNDELIVERED.matcher(line);
            if (m.find() && m.group(1).equals(srqName)) {
                n += Long.parseLong(m.group(2));
            }
        }
        return n;
    }
}
