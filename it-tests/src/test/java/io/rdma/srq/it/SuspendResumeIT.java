package io.rdma.srq.it;

import io.rdma.srq.it.mdb.Messages;
import io.rdma.srq.it.mdb.Pauses;
import io.rdma.srq.it.mdb.StreamSender;
import io.rdma.srq.it.mdb.SuspendAMdb;
import io.rdma.srq.it.mdb.SuspendBMdb;
import io.rdma.srq.it.mdb.SuspendCMdb;
import io.rdma.srq.it.mdb.SuspendSink;
import io.rdma.srq.it.mdb.Tally;
import io.rdma.srq.it.mdb.TrafficServlet;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.as.arquillian.container.ManagementClient;
import org.jboss.as.controller.client.helpers.Operations;
import org.jboss.dmr.ModelNode;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * From outside, WildFly's {@code :suspend(suspend-timeout=…)} and {@code :resume} with traffic: three
 * slow MDBs each have a backlog of about {@value SuspendSink#BACKLOG} acknowledged messages in their
 * CQ (about 2 s of work each) when the server suspends. WildFly deactivates each MDB
 * (MessageDrivenComponent's ServerActivity.preSuspend → endpointDeactivation), which drains it;
 * while suspended, a sender's connect is refused; after resume delivery goes on. Every message a
 * sender saw acknowledged is delivered exactly once (drainTimeout 20 s covers the backlog, so
 * nothing is counted undelivered), nothing arrives twice, and the suspend completes within its timeout.
 * The three drains run at once (the adapter's ServerSuspendDrain quiesces every activation before
 * WildFly deactivates the MDBs one after another): they end together and the suspend takes about one
 * drain, not three. Prints the figures: how long the suspend took and when each MDB's drain ended.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
public class SuspendResumeIT {
    private static final String APP = "suspend-traffic";
    private static final int STREAMS = 3;
    /** The server's suspend timeout, seconds. */
    private static final int SUSPEND_TIMEOUT = 30;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final ModelNode ROOT = new ModelNode().setEmptyList();

    @Deployment(name = APP, testable = false)
    public static WebArchive app() {
        return Apps.war(APP + ".war", false).addClasses(SuspendSink.class, SuspendAMdb.class, SuspendBMdb.class,
                SuspendCMdb.class, Pauses.class, StreamSender.class, TrafficServlet.class, Tally.class, Tally.Summary.class,
                Messages.class);
    }

    @ArquillianResource
    private ManagementClient management;

    @Test
    public void suspendDrainsRefusesConnectsAndResumeDeliversAgain() throws Exception {
        get("/traffic?op=start&streams=" + STREAMS);
        List<Integer> before = awaitAcked(null, SuspendSink.BACKLOG * 2); // the CQs hold a full backlog now

        ModelNode suspend = Operations.createOperation("suspend", ROOT);
        suspend.get("suspend-timeout").set(SUSPEND_TIMEOUT);
        long suspendStart = System.currentTimeMillis();
        Management.ok(management, suspend);
        long suspendEnd = System.currentTimeMillis();
        String state = Management.attribute(management, ROOT, "suspend-state").asString();
        Thread.sleep(1_000); // the senders try to connect while suspended
        Management.ok(management, Operations.createOperation("resume", ROOT));
        long resumed = System.currentTimeMillis();

        awaitAcked(before, 200); // delivery goes on after resume
        String report = get("/traffic?op=stop");
        System.out.printf("suspend of %d MDBs with a backlog each: :suspend took %d ms (suspend-timeout %d s), "
                        + "state %s; resumed %d ms after it began%n%s%n", STREAMS, suspendEnd - suspendStart,
                SUSPEND_TIMEOUT, state, resumed - suspendStart, report);

        assertEquals("SUSPENDED", state, "the suspend completed within its timeout");
        assertTrue(suspendEnd - suspendStart < SUSPEND_TIMEOUT * 1000L, "took " + (suspendEnd - suspendStart));
        String[] lines = report.split("\n");
        assertEquals(STREAMS, lines.length, report);
        List<Long> drainEnds = new ArrayList<>();
        for (String line : lines) {
            assertEquals(0, number(line, "lost"), "every acknowledged message delivered: " + line);
            assertEquals(0, number(line, "duplicated"), line);
            assertEquals(0, number(line, "foreign"), line);
            assertEquals(0, number(line, "problems"), line);
            assertTrue(number(line, "inDoubt") <= 2, "at most the message in flight at suspend and resume: " + line);
            assertTrue(line.contains("ECONNREFUSED"), "a connect while suspended is refused: " + line);
            long reconnected = number(line, "reconnectedAt");
            assertTrue(reconnected >= resumed - 100, "no connect succeeds before resume: " + line);
            long pauseFrom = number(line, "pauseFrom");
            assertTrue(pauseFrom >= suspendStart && pauseFrom <= suspendEnd,
                    "the drain ended within the suspend: " + line);
            drainEnds.add(pauseFrom - suspendStart);
        }
        System.out.println("drain ends, ms after :suspend began: " + drainEnds);
        long oneBacklog = (long) SuspendSink.BACKLOG * SuspendSink.MILLIS;
        long spread = drainEnds.stream().mapToLong(Long::longValue).max().orElseThrow()
                - drainEnds.stream().mapToLong(Long::longValue).min().orElseThrow();
        assertTrue(spread < oneBacklog / 2, "the drains ran at once, not one after another: " + drainEnds);
        assertTrue(suspendEnd - suspendStart < 2 * oneBacklog, "the suspend took about one drain, not the sum of "
                + STREAMS + ": " + (suspendEnd - suspendStart) + " ms");
    }

    /**
     * Polls op=acked until every stream has {@code more} acknowledged messages beyond {@code base}.
     *
     * @param base earlier counts, or null for 0
     * @param more how many more
     * @return the counts now
     */
    private List<Integer> awaitAcked(List<Integer> base, int more) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            List<Integer> now = get("/traffic?op=acked").lines().map(Integer::parseInt).toList();
            boolean enough = now.size() == STREAMS;
            for (int i = 0; enough && i < STREAMS; i++) {
                enough = now.get(i) >= (base == null ? 0 : base.get(i)) + more;
            }
            if (enough) {
                return now;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("acknowledged so far " + now + ", from " + base + "\n" + get("/traffic?op=stop"));
            }
            Thread.sleep(100);
        }
    }

    private static long number(String line, String key) {
        Matcher m = Pattern.compile("\\b" + key + "=(\\d+)").matcher(line);
        assertTrue(m.find(), key + " in " + line);
        return Long.parseLong(m.group(1));
    }

    private String get(String path) throws Exception {
        URI uri = URI.create(management.getWebUri() + "/" + APP + path);
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(90)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), uri + ": " + r.body());
        return r.body().strip();
    }
}
