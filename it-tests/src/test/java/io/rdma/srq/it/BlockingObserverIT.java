package io.rdma.srq.it;

import io.rdma.srq.it.mdb.BlockingLimitObserver;
import io.rdma.srq.it.mdb.Messages;
import io.rdma.srq.it.mdb.ObserverServlet;
import io.rdma.srq.it.mdb.Sender;
import io.rdma.srq.it.mdb.SlowMdb;
import io.rdma.srq.it.mdb.Tally;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.as.arquillian.container.ManagementClient;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An application's {@code @Observes SrqLimitReached} that blocks its thread for
 * {@value BlockingLimitObserver#BLOCK_SECONDS} s delays neither new connections nor deactivation:
 * while it is blocked, four new connections are accepted and their messages delivered, and the MDB's
 * {@code :stop-delivery} (deactivation: drain, free) completes. Both are checked against the
 * observer's own state (still blocked afterwards), not against a clock.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
public class BlockingObserverIT {
    private static final String APP = "blocking-observer";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Deployment(name = APP, testable = false)
    public static WebArchive app() {
        return Apps.war(APP + ".war", true).addClasses(SlowMdb.class, BlockingLimitObserver.class,
                ObserverServlet.class, Sender.class, Tally.class, Tally.Summary.class, Messages.class);
    }

    @ArquillianResource
    private ManagementClient management;

    @Test
    public void aBlockedObserverDelaysNoConnectAndNoDeactivation() throws Exception {
        String burst = get("op=send&prefix=burst&connections=1&n=200"); // drives the SRQ below its limit
        assertEquals(0, Traffic.number(burst, "missing"), burst);
        awaitBlocking();
        try {
            String late = get("op=send&prefix=late&connections=4&n=40");
            assertEquals(40, Traffic.number(late, "total"), "four new connections accepted and delivered: " + late);
            assertEquals(0, Traffic.number(late, "missing") + Traffic.number(late, "duplicated"), late);
            assertEquals("true", Traffic.word(late, "blocking"), "...while the observer was blocked: " + late);

            long t0 = System.currentTimeMillis();
            Management.ok(management, Management.mdbOperation(APP + ".war", "SlowMdb", "stop-delivery"));
            long stopMs = System.currentTimeMillis() - t0;
            String state = get("op=state");
            System.out.printf("stop-delivery took %d ms with the observer blocked: %s%n", stopMs, state);
            assertEquals("true", Traffic.word(state, "blocking"), "deactivation completed while the observer was "
                    + "still blocked (" + stopMs + " ms): " + state);
        } finally {
            get("op=release");
        }
    }

    private void awaitBlocking() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        String state = get("op=state");
        while (!state.startsWith("blocking=true")) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the observer never saw SrqLimitReached: " + state);
            }
            Thread.sleep(20);
            state = get("op=state");
        }
    }

    private String get(String query) throws Exception {
        URI uri = URI.create(management.getWebUri() + "/" + APP + "/observer?" + query);
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), uri + ": " + r.body());
        return r.body().strip();
    }
}
