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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

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
        Traffic traffic = new Traffic(management, APP);
        traffic.start(Traffic.stream(SuspendAMdb.NAME, SuspendAMdb.PORT, SuspendAMdb.MARKER),
                Traffic.stream(SuspendBMdb.NAME, SuspendBMdb.PORT, SuspendBMdb.MARKER),
                Traffic.stream(SuspendCMdb.NAME, SuspendCMdb.PORT, SuspendCMdb.MARKER));
        List<Integer> before = traffic.awaitAcked(STREAMS, null, SuspendSink.BACKLOG * 2); // the CQs hold a full backlog now

        ModelNode suspend = Operations.createOperation("suspend", ROOT);
        suspend.get("suspend-timeout").set(SUSPEND_TIMEOUT);
        long suspendStart = System.currentTimeMillis();
        Management.ok(management, suspend);
        long suspendEnd = System.currentTimeMillis();
        String state = Management.attribute(management, ROOT, "suspend-state").asString();
        Thread.sleep(1_000); // the senders try to connect while suspended
        Management.ok(management, Operations.createOperation("resume", ROOT));
        long resumed = System.currentTimeMillis();

        traffic.awaitAcked(STREAMS, before, 200); // delivery goes on after resume
        String report = traffic.stop();
        System.out.printf("suspend of %d MDBs with a backlog each: :suspend took %d ms (suspend-timeout %d s), "
                        + "state %s; resumed %d ms after it began%n%s%n", STREAMS, suspendEnd - suspendStart,
                SUSPEND_TIMEOUT, state, resumed - suspendStart, report);

        assertEquals("SUSPENDED", state, "the suspend completed within its timeout");
        assertTrue(suspendEnd - suspendStart < SUSPEND_TIMEOUT * 1000L, "took " + (suspendEnd - suspendStart));
        String[] lines = report.split("\n");
        assertEquals(STREAMS, lines.length, report);
        List<Long> drainEnds = new ArrayList<>();
        for (String line : lines) {
            assertEquals(0, Traffic.number(line, "lost"), "every acknowledged message delivered: " + line);
            assertEquals(0, Traffic.number(line, "duplicated"), line);
            assertEquals(0, Traffic.number(line, "foreign"), line);
            assertEquals(0, Traffic.number(line, "problems"), line);
            assertTrue(Traffic.number(line, "inDoubt") <= 2, "at most the message in flight at suspend and resume: " + line);
            assertTrue(line.contains("ECONNREFUSED"), "a connect while suspended is refused: " + line);
            long reconnected = Traffic.number(line, "reconnectedAt");
            assertTrue(reconnected >= resumed - 100, "no connect succeeds before resume: " + line);
            long pauseFrom = Traffic.number(line, "pauseFrom");
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
}
