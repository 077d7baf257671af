package io.rdma.srq.it;

import io.rdma.srq.it.mdb.LiveObjectsServlet;
import io.rdma.srq.it.mdb.Messages;
import io.rdma.srq.it.mdb.RedeployMdb;
import io.rdma.srq.it.mdb.SendServlet;
import io.rdma.srq.it.mdb.Sender;
import io.rdma.srq.it.mdb.Tally;
import org.jboss.arquillian.container.test.api.Deployer;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * From outside: an MDB application is deployed, used, undeployed and deployed again while a probe
 * application watches the server's soft device. After each undeploy (and a flush of the connection
 * pool the sender used) every native object is gone — SoftProvider.liveObjects() is back where it
 * was — and the adapter has no activation left for the MDB.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
public class MdbRedeployIT {
    private static final String PROBE = "native-probe";
    private static final String APP = "mdb-redeploy";
    private static final int MESSAGES = 2_000;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** The default connection definition (ironjacamar.xml of the adapter). */
    private static final ModelNode DEFAULT_POOL = Operations.createAddress("deployment", Apps.RAR, "subsystem",
            "resource-adapters", "ironjacamar", "ironjacamar", "resource-adapter", Apps.RAR,
            "connection-definitions", "java:/eis/SrqConnectionFactory");

    @Deployment(name = PROBE, testable = false)
    public static WebArchive probe() {
        return Apps.war(PROBE + ".war", false).addClass(LiveObjectsServlet.class);
    }

    @Deployment(name = APP, managed = false, testable = false)
    public static WebArchive app() {
        return Apps.war(APP + ".war", true).addClasses(RedeployMdb.class, SendServlet.class, Sender.class,
                Tally.class, Tally.Summary.class, Messages.class);
    }

    @ArquillianResource
    private Deployer deployer;

    @ArquillianResource
    private ManagementClient management;

    @Test
    public void undeployFreesEveryNativeObjectAndRedeployWorks() throws Exception {
        String before = quiescentLive();
        assertFalse(activations(before).contains(RedeployMdb.NAME), before);
        for (int round = 1; round <= 2; round++) {
            deployer.deploy(APP);
            try {
                String during = get(PROBE, "/live");
                assertTrue(activations(during).contains(RedeployMdb.NAME), "round " + round + ": " + during);
                assertTrue(live(during) > live(before), "the activation holds native objects: " + during);
                String sent = get(APP, "/send?n=" + MESSAGES);
                assertEquals("sent=" + MESSAGES + " total=" + MESSAGES + " missing=0 duplicated=0 problems=0",
                        sent.strip(), "round " + round);
            } finally {
                deployer.undeploy(APP);
            }
            String after = quiescentLive();
            assertEquals(before, after, "round " + round + ": every native object of the application is freed");
        }
    }

    /** Flushes the idle connections of the default pool (the sender's), then reads /live. */
    private String quiescentLive() throws Exception {
        Management.ok(management, Operations.createOperation("flush-all-connection-in-pool", DEFAULT_POOL));
        return get(PROBE, "/live");
    }

    private static int live(String probe) {
        return Integer.parseInt(probe.replaceAll("(?s).*live=(\\d+).*", "$1"));
    }

    private static String activations(String probe) {
        return probe.replaceAll("(?s).*activations=(\\S*).*", "$1");
    }

    private String get(String app, String path) throws Exception {
        URI uri = URI.create(management.getWebUri() + "/" + app + path);
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), uri + ": " + r.body());
        return r.body().strip();
    }
}
