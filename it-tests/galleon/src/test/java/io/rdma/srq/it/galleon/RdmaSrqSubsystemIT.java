package io.rdma.srq.it.galleon;

import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.as.arquillian.container.ManagementClient;
import org.jboss.dmr.ModelNode;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The subsystem rdma-srq on a server provisioned with the layer rdma-srq: an MDB deployed after boot shows
 * as {@code /subsystem=rdma-srq/activation=<srqName>} and under its deployment, and in {@code /metrics}
 * with its counters typed as counters, without a reload; the operations pause, resume, drain and
 * reset-statistics change delivery as documented (docs/operating.md); the layer's connection definition shows
 * as {@code connection-definition=SrqConnectionFactory} and its flush empties the pool; {@code /health/ready}
 * carries the adapter's readiness check; a bad attribute value is refused by
 * the management layer naming the attribute and its range; undeploy removes the resource.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
public class RdmaSrqSubsystemIT {
    private static final String APP = "subsystem";
    private static final String NAME = SubsystemEchoMdb.SRQ_NAME;

    @ArquillianResource
    private Deployer deployer;

    @ArquillianResource
    private ManagementClient management;

    /** Deployed and undeployed by the test itself, after the server booted. */
    @Deployment(name = APP, managed = false, testable = false)
    public static WebArchive app() {
        return ShrinkWrap.create(WebArchive.class, APP + ".war")
                .setManifest(new StringAsset("Manifest-Version: 1.0\nDependencies: io.rdma.srq meta-inf\n"))
                .addClasses(SubsystemEchoMdb.class, Echo.class, EchoCallServlet.class);
    }

    @Test
    public void anActivationComesAndGoesWithItsMdbAndObeysItsOperations() throws Exception {
        ModelNode activation = address("subsystem", "rdma-srq", "activation", NAME);
        assertFalse(management.getControllerClient().execute(op(activation, "read-resource")).get("outcome").asString().equals("success"),
                "no activation before the deployment");

        deployer.deploy(APP);
        try {
            // it appears by itself, at the subsystem and under its deployment
            ModelNode r = ok(op(activation, "read-resource", "include-runtime", true));
            assertEquals("ACTIVE", r.get("state-name").asString(), r.toString());
            assertEquals(SubsystemEchoMdb.class.getName(), r.get("endpoint-class").asString(), r.toString());
            assertEquals(APP + ".war", r.get("deployment").asString(), r.toString());
            assertTrue(ok(op(address("subsystem", "rdma-srq"), "read-children-names", "child-type", "activation"))
                    .asList().stream().anyMatch(n -> n.asString().equals(NAME)), "listed under /subsystem=rdma-srq");
            ModelNode inDeployment = address("deployment", APP + ".war", "subsystem", "rdma-srq", "activation", NAME);
            assertEquals("ACTIVE", ok(op(inDeployment, "read-attribute", "name", "state-name")).asString());

            assertEquals("ok", call(5_000));
            assertEquals(1, figure(activation, "delivered"), "one call delivered");

            // /metrics: the deployment's activation, its counters typed as counters
            String metrics = get(URI.create("http://" + management.getMgmtAddress() + ":" + management.getMgmtPort() + "/metrics"));
            List<String> delivered = metrics.lines().filter(l -> l.startsWith("wildfly_rdma_srq_delivered")
                    && l.contains("activation=\"" + NAME + "\"")).toList();
            assertEquals(1, delivered.size(), "one delivered line for the activation:\n" + grep(metrics, "wildfly_rdma_srq_delivered"));
            System.out.println("/metrics of activation " + NAME + " (as docs/operating.md shows them):\n" + grep(metrics, "wildfly_rdma_srq_"));
            System.out.println(":read-resource(include-runtime=true) of " + activation + ":\n" + r);
            assertTrue(delivered.get(0).contains("deployment=\"" + APP + ".war\""), delivered.get(0));
            assertTrue(delivered.get(0).endsWith(" 1.0") || delivered.get(0).endsWith(" 1"), delivered.get(0));
            assertTrue(metrics.lines().anyMatch(l -> l.matches("# TYPE wildfly_rdma_srq_delivered\\S* counter")),
                    "delivered typed as a counter:\n" + grep(metrics, "# TYPE wildfly_rdma_srq_delivered"));
            assertTrue(metrics.lines().anyMatch(l -> l.matches("# TYPE wildfly_rdma_srq_outstanding_receives\\S* gauge")),
                    "outstanding-receives typed as a gauge:\n" + grep(metrics, "# TYPE wildfly_rdma_srq_outstanding"));

            // readiness: the adapter's check, registered by the subsystem (no deployment of the adapter here)
            String ready = get(URI.create("http://" + management.getMgmtAddress() + ":" + management.getMgmtPort() + "/health/ready"));
            assertTrue(ready.contains("\"srq-activations\"") && ready.contains("\"" + NAME + "\":\"ACTIVE\""),
                    "the check srq-activations names the activation ACTIVE: " + ready);

            // the layer's connection definition: its figures, and flush
            ModelNode definition = address("subsystem", "rdma-srq", "connection-definition", "SrqConnectionFactory");
            ModelNode d = ok(op(definition, "read-resource", "include-runtime", true));
            assertEquals("java:/eis/SrqConnectionFactory", d.get("jndi-name").asString(), d.toString());
            assertEquals("soft", d.get("provider").asString(), d.toString());
            assertTrue(d.get("open-connections").asLong() >= 1, "the call's pooled connection stays open: " + d);
            ok(op(definition, "flush"));
            assertEquals(0, figure(definition, "open-connections"), "flushed: no pooled connection left");
            assertEquals("ok", call(5_000), "the pool opens a new connection after the flush");
            assertEquals(2, figure(activation, "delivered"), "two calls delivered");

            // pause: a call waits in the CQ and times out; resume: the next call is answered
            ok(op(activation, "pause"));
            assertEquals(1, figure(activation, "paused"));
            assertTrue(call(1_000).startsWith("failed CallTimedOutException"), "a call while paused times out");
            ok(op(activation, "resume"));
            assertEquals(0, figure(activation, "paused"));
            assertEquals("ok", call(5_000));
            assertEquals(4, figure(activation, "delivered"), "the paused call was delivered after resume, then the next");

            // reset-statistics: counters from 0
            ok(op(activation, "reset-statistics"));
            assertEquals(0, figure(activation, "delivered"));

            // drain while paused: what was accepted is delivered, then nothing more is accepted
            ok(op(activation, "pause"));
            assertTrue(call(1_000).startsWith("failed"), "a call while paused times out");
            ModelNode drained = ok(op(activation, "drain", "timeout", 5_000L));
            assertEquals(1, drained.get("delivered").asLong(), drained.toString());
            assertEquals(0, drained.get("undelivered").asLong(), drained.toString());
            assertTrue(call(2_000).startsWith("failed"), "a drained activation accepts no call");
            assertEquals("DRAINED", ok(op(activation, "read-attribute", "name", "state-name")).asString());
            ModelNode resumed = management.getControllerClient().execute(op(activation, "resume"));
            assertEquals("failed", resumed.get("outcome").asString(), "nothing to resume once drained: " + resumed);
            assertTrue(resumed.get("failure-description").asString().contains("DRAINED"), resumed.toString());
            String notReady = get(URI.create("http://" + management.getMgmtAddress() + ":" + management.getMgmtPort() + "/health/ready"), 503);
            assertTrue(notReady.contains("\"" + NAME + "\":\"DRAINED\""), "readiness DOWN naming it DRAINED: " + notReady);
        } finally {
            deployer.undeploy(APP);
        }
        // gone with its MDB
        assertFalse(management.getControllerClient().execute(op(activation, "read-resource")).get("outcome").asString().equals("success"),
                "the activation resource is removed at undeploy");
        assertFalse(ok(op(address("subsystem", "rdma-srq"), "read-children-names", "child-type", "activation"))
                .asList().stream().anyMatch(n -> n.asString().equals(NAME)), "no longer listed");
    }

    @Test
    public void aKnobOutsideItsRangeIsRefusedNamingTheAttributeAndItsRange() throws Exception {
        ModelNode subsystem = address("subsystem", "rdma-srq");
        ModelNode refused = management.getControllerClient().execute(op(subsystem, "write-attribute", "name", "spinners", "value", 5000L));
        assertEquals("failed", refused.get("outcome").asString(), refused.toString());
        String why = refused.get("failure-description").asString();
        assertTrue(why.contains("spinners") && why.contains("1024"), "names the attribute and its range: " + why);

        ModelNode description = ok(op(subsystem, "read-resource-description"));
        ModelNode spinners = description.get("attributes", "spinners");
        assertEquals(0, spinners.get("min").asLong(), spinners.toString());
        assertEquals(1024, spinners.get("max").asLong(), spinners.toString());
        assertTrue(spinners.get("description").asString().contains("srq.spinners"), spinners.toString());
        assertEquals("jvm", spinners.get("restart-required").asString(), spinners.toString());
        assertTrue(description.get("children", "activation", "description").isDefined(), description.toString());
    }

    private long figure(ModelNode address, String name) throws IOException {
        return ok(op(address, "read-attribute", "name", name)).asLong();
    }

    private String call(long timeoutMs) throws Exception {
        return get(URI.create("http://" + management.getWebUri().getHost() + ":" + management.getWebUri().getPort()
                + "/" + APP + "/call?timeoutMs=" + timeoutMs));
    }

    private static String get(URI uri) throws Exception {
        return get(uri, 200);
    }

    private static String get(URI uri, int status) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(status, r.statusCode(), uri + ": " + r.body());
            return r.body();
        }
    }

    private static String grep(String text, String prefix) {
        return String.join("\n", text.lines().filter(l -> l.contains(prefix)).limit(20).toList());
    }

    private ModelNode ok(ModelNode operation) throws IOException {
        ModelNode r = management.getControllerClient().execute(operation);
        assertEquals("success", r.get("outcome").asString(), operation + " -> " + r);
        return r.get("result");
    }

    private static ModelNode address(String... pairs) {
        ModelNode a = new ModelNode().setEmptyList();
        for (int i = 0; i < pairs.length; i += 2) {
            a.add(pairs[i], pairs[i + 1]);
        }
        return a;
    }

    private static ModelNode op(ModelNode address, String name, Object... params) {
        ModelNode op = new ModelNode();
        op.get("operation").set(name);
        op.get("address").set(address);
        for (int i = 0; i < params.length; i += 2) {
            Object v = params[i + 1];
            if (v instanceof Boolean b) {
                op.get((String) params[i]).set(b);
            } else if (v instanceof Long l) {
                op.get((String) params[i]).set(l);
            } else {
                op.get((String) params[i]).set(String.valueOf(v));
            }
        }
        return op;
    }
}
