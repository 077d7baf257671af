package io.rdma.srq.it;

import io.rdma.srq.it.app.InjectBean;
import io.rdma.srq.it.app.Probe;
import io.rdma.srq.it.app.ProbeServlet;
import io.rdma.srq.it.app.ResourceLookupBean;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * From outside, as a user: an application is deployed, used over HTTP, undeployed and deployed
 * again while the adapter stays deployed; and the second definition's pool statistics count what
 * it used.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
public class RedeployIT {
    private static final String APP = "probe-app";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Deployment(name = APP, managed = false, testable = false)
    public static WebArchive app() {
        return Apps.war(APP + ".war", true)
                .addClasses(ProbeServlet.class, ResourceLookupBean.class, InjectBean.class, Probe.class);
    }

    @ArquillianResource
    private Deployer deployer;

    @ArquillianResource
    private ManagementClient management;

    @Test
    public void appUndeploysAndRedeploysWhileTheAdapterStays() throws Exception {
        deployer.deploy(APP);
        try {
            HttpResponse<String> first = get("");
            assertEquals(200, first.statusCode(), first.body());
            assertTrue(first.body().startsWith("device=soft"), first.body());

            deployer.undeploy(APP);
            assertEquals(404, get("").statusCode(), "the app is gone after undeploy");
            assertEquals("OK", Management.attribute(management,
                    Operations.createAddress("deployment", Apps.RAR), "status").asString(),
                    "the adapter stays deployed");

            deployer.deploy(APP);
            HttpResponse<String> again = get("");
            assertEquals(200, again.statusCode(), again.body());
            assertTrue(again.body().startsWith("device=soft"), again.body());
            HttpResponse<String> orders = get("?factory=orders");
            assertEquals(200, orders.statusCode(), orders.body());
            assertTrue(orders.body().startsWith("device=soft_mlx5_0"), orders.body());
        } finally {
            deployer.undeploy(APP);
        }
    }

    @Test
    public void secondDefinitionHasPoolStatistics() throws Exception {
        assertTrue(Management.attribute(management, Operations.createAddress("subsystem", "resource-adapters",
                "resource-adapter", "srq-orders"), "statistics-enabled").asBoolean(), "configure.cli enables them");
        deployer.deploy(APP);
        try {
            HttpResponse<String> r = get("?factory=orders");
            assertEquals(200, r.statusCode(), r.body());
            ModelNode pool = Management.ok(management, readPool());
            assertTrue(pool.get("statistics-enabled").asBoolean(), pool.toString());
            assertTrue(pool.get("CreatedCount").asInt() >= 1, "a pooled connection was created: " + pool);
            assertEquals(0, pool.get("InUseCount").asInt(), "and returned to the pool: " + pool);
        } finally {
            deployer.undeploy(APP);
        }
    }

    private static ModelNode readPool() {
        ModelNode op = Operations.createReadResourceOperation(Management.ORDERS_POOL);
        op.get("include-runtime").set(true);
        return op;
    }

    private HttpResponse<String> get(String query) throws Exception {
        URI uri = URI.create(management.getWebUri() + "/" + APP + "/probe" + query);
        return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
