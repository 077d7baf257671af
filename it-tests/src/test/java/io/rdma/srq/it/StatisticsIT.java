package io.rdma.srq.it;

import io.rdma.srq.it.mdb.Messages;
import io.rdma.srq.it.mdb.SendServlet;
import io.rdma.srq.it.mdb.Sender;
import io.rdma.srq.it.mdb.StatsMdb;
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
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The adapter's figures as an operator reads them: jboss-cli's operations on the
 * {@code statistics=extended} resources and WildFly's {@code /metrics}, after an MDB deployed after
 * the adapter (its statistics resources registered at boot) has received messages.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
public class StatisticsIT {
    private static final String PROBE = "statistics-probe";
    private static final String APP = "statistics-app";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** configure.cli's activation monitor (srq.properties: srq.monitor.name, watching srqName demo). */
    private static final ModelNode MONITOR = Operations.createAddress("subsystem", "resource-adapters",
            "resource-adapter", "srq-orders", "admin-objects", "demo-activation", "statistics", "extended");
    /** The srq-orders adapter's totals over the activations it runs. */
    private static final ModelNode ORDERS_ADAPTER = Operations.createAddress("subsystem", "resource-adapters",
            "resource-adapter", "srq-orders", "statistics", "extended");
    /** The srq-orders definition's own figures. */
    private static final ModelNode ORDERS_DEFINITION = Operations.createAddress("subsystem", "resource-adapters",
            "resource-adapter", "srq-orders", "connection-definitions", "SrqOrders", "statistics", "extended");
    private static final String MONITOR_LABELS = "admin_objects=\"demo-activation\"";
    /** configure.cli's definition monitor (srq.properties: srq.definition.monitor.*): the archive's own definition. */
    private static final ModelNode EMBEDDED_DEFINITION = Operations.createAddress("subsystem", "resource-adapters",
            "resource-adapter", "srq-embedded", "admin-objects", "embedded-definition", "statistics", "extended");
    private static final String EMBEDDED_LABELS = "admin_objects=\"embedded-definition\"";

    /** Keeps a managed deployment, around which Arquillian provides the ManagementClient. */
    @Deployment(name = PROBE, testable = false)
    public static WebArchive probe() {
        return Apps.war(PROBE + ".war", false);
    }

    @Deployment(name = APP, managed = false, testable = false)
    public static WebArchive app() {
        return Apps.war(APP + ".war", true).addClasses(StatsMdb.class, SendServlet.class, Sender.class, Tally.class,
                Tally.Summary.class, Messages.class);
    }

    @ArquillianResource
    private Deployer deployer;

    @ArquillianResource
    private ManagementClient management;

    @Test
    public void theFiguresOfAnActivationDeployedAfterTheAdapterMoveWithItsTraffic() throws Exception {
        ModelNode idle = read(MONITOR);
        assertEquals(0, idle.get("active").asLong(), "no activation named demo yet: " + idle);
        deployer.deploy(APP);
        try {
            ModelNode before = read(MONITOR);
            assertEquals(1, before.get("active").asLong(), before.toString());
            assertEquals(1, before.get("healthy").asLong(), before.toString());
            assertEquals(StatsMdb.NAME, before.get("srq-name").asString());
            assertEquals("soft", before.get("provider").asString());
            assertEquals("1:ACTIVE", before.get("port-state").asString());
            assertTrue(before.get("receives-posted").asLong() > 0, "the SRQ is filled: " + before);
            String metricsBefore = metrics();
            double metricDeliveredBefore = metric(metricsBefore, "wildfly_resource_adapters_extended_delivered", MONITOR_LABELS);

            assertEquals("sent=100 total=100 missing=0 duplicated=0 problems=0", get(APP, "/send?to=stats&n=100"));

            ModelNode after = read(MONITOR);
            assertEquals(before.get("delivered").asLong() + 100, after.get("delivered").asLong(), after.toString());
            assertEquals(before.get("completions").asLong() + 100, after.get("completions").asLong(), after.toString());
            assertEquals(0, after.get("error-completions").asLong());
            assertEquals(0, after.get("endpoint-failures").asLong());
            assertTrue(after.get("receives-posted").asLong() >= before.get("receives-posted").asLong() + 100,
                    "every consumed receive is posted again: " + before + " -> " + after);
            String metricsAfter = metrics();
            assertEquals(metricDeliveredBefore + 100,
                    metric(metricsAfter, "wildfly_resource_adapters_extended_delivered", MONITOR_LABELS), 0.0);
            assertEquals(1.0, metric(metricsAfter, "wildfly_resource_adapters_extended_healthy", MONITOR_LABELS), 0.0);
            assertEquals(after.get("outstanding-receives").asLong(),
                    (long) metric(metricsAfter, "wildfly_resource_adapters_extended_outstanding_receives", MONITOR_LABELS));

            ModelNode orders = read(ORDERS_DEFINITION);
            assertEquals(1, orders.get("healthy").asLong(), orders.toString());
            assertEquals("soft", orders.get("provider").asString());
            assertEquals("soft_mlx5_0", orders.get("device").asString(), "srq.properties: softProfile mlx5");
        } finally {
            deployer.undeploy(APP);
        }
        ModelNode gone = read(MONITOR);
        assertEquals(0, gone.get("active").asLong(), "undeployed: " + gone);
    }

    @Test
    public void disabledStatisticsCollectNothingAndEnablingCountsFromThen() throws Exception {
        deployer.deploy(APP);
        try {
            assertTrue(read(MONITOR).get("statistics-enabled").asBoolean(), "configure.cli: statistics-enabled=true");
            setEnabled(MONITOR, false);
            assertEquals("sent=40 total=40 missing=0 duplicated=0 problems=0", get(APP, "/send?to=stats&n=40"));
            ModelNode off = read(MONITOR);
            assertFalse(off.get("statistics-enabled").asBoolean());
            assertEquals(0, off.get("delivered").asLong(), "nothing collected while disabled: " + off);
            assertEquals(0.0, metric(metrics(), "wildfly_resource_adapters_extended_delivered", MONITOR_LABELS), 0.0);

            setEnabled(MONITOR, true);
            assertEquals(0, read(MONITOR).get("delivered").asLong(), "enabled again: counts from then");
            assertEquals("sent=30 total=30 missing=0 duplicated=0 problems=0", get(APP, "/send?to=stats&n=30"));
            assertEquals(30, read(MONITOR).get("delivered").asLong());
        } finally {
            try {
                setEnabled(MONITOR, true);
            } finally {
                deployer.undeploy(APP);
            }
        }
    }

    /**
     * The archive's own definition (ironjacamar.xml: java:/eis/SrqConnectionFactory, which the
     * application's {@code @Inject SrqConnectionFactory} uses) has no statistics resource in WildFly 39;
     * its monitor shows its figures, moved by the application's pooled connections, and honours
     * statistics-enabled.
     */
    @Test
    public void theArchivesOwnDefinitionShowsThroughItsMonitor() throws Exception {
        deployer.deploy(APP);
        try {
            assertEquals("sent=20 total=20 missing=0 duplicated=0 problems=0", get(APP, "/send?to=stats&n=20"));
            ModelNode d = read(EMBEDDED_DEFINITION);
            assertEquals(1, d.get("healthy").asLong(), d.toString());
            assertEquals("soft", d.get("provider").asString(), "provider auto on a machine with no RDMA device: " + d);
            assertEquals("1:ACTIVE", d.get("port-state").asString(), d.toString());
            long open = d.get("open-connections").asLong();
            assertTrue(open >= 1, "the sender's pooled connections stay in the pool: " + d);
            assertEquals((double) open, metric(metrics(), "wildfly_resource_adapters_extended_open_connections", EMBEDDED_LABELS), 0.0);

            setEnabled(EMBEDDED_DEFINITION, false);
            ModelNode off = read(EMBEDDED_DEFINITION);
            assertEquals(0, off.get("open-connections").asLong(), "nothing collected while disabled: " + off);
            assertEquals("soft", off.get("provider").asString(), "text figures still show: " + off);
        } finally {
            try {
                setEnabled(EMBEDDED_DEFINITION, true);
            } finally {
                deployer.undeploy(APP);
            }
        }
    }

    /** The adapter srq-orders runs no activation: MDBs without @ResourceAdapter activate on the archive's own. */
    @Test
    public void aConfiguredAdapterCountsTheActivationsItRuns() throws Exception {
        ModelNode orders = read(ORDERS_ADAPTER);
        assertTrue(orders.get("statistics-enabled").asBoolean(), "configure.cli: statistics-enabled=true: " + orders);
        deployer.deploy(APP);
        try {
            assertEquals(0, read(ORDERS_ADAPTER).get("activations").asLong(), "the MDB runs on " + Apps.RAR);
        } finally {
            deployer.undeploy(APP);
        }
    }

    private ModelNode read(ModelNode address) throws Exception {
        ModelNode op = Operations.createReadResourceOperation(address);
        op.get("include-runtime").set(true);
        return Management.ok(management, op);
    }

    private void setEnabled(ModelNode address, boolean enabled) throws Exception {
        Management.ok(management, Operations.createWriteAttributeOperation(address, "statistics-enabled", enabled));
    }

    private String metrics() throws Exception {
        URI uri = URI.create("http://" + management.getMgmtAddress() + ":" + management.getMgmtPort() + "/metrics");
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), uri + ": " + r.body());
        return r.body();
    }

    /** @return the value of the one Prometheus line of that name carrying the label */
    private static double metric(String text, String name, String label) {
        var lines = text.lines().filter(l -> l.startsWith(name + "{") && l.contains(label)).toList();
        assertEquals(1, lines.size(), name + " with " + label + " in /metrics; the adapter's lines:\n"
                + text.lines().filter(l -> l.contains("resource_adapters_extended")).collect(Collectors.joining("\n")));
        String line = lines.getFirst();
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
    }

    private String get(String app, String path) throws Exception {
        URI uri = URI.create(management.getWebUri() + "/" + app + path);
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), uri + ": " + r.body());
        return r.body().strip();
    }
}
