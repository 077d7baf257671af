package io.rdma.srq.it;

import io.rdma.srq.it.mdb.DeviceServlet;
import io.rdma.srq.it.mdb.LateMdb;
import io.rdma.srq.it.mdb.LateSendServlet;
import io.rdma.srq.it.mdb.Messages;
import io.rdma.srq.it.mdb.Sender;
import io.rdma.srq.it.mdb.Tally;
import org.jboss.arquillian.container.test.api.Deployer;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * From outside, on WildFly: an MDB deployed while its (soft) device is absent deploys, its
 * activation STARTING and MicroProfile Health readiness ({@code /health/ready}) DOWN naming it; once
 * the device is added the activation comes up by itself (no redeploy), readiness is UP, and every
 * message sent to it is delivered once.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
public class LateDeviceIT {
    private static final String CONTROL = "device-control";
    private static final String APP = "late-mdb";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Deployment(name = CONTROL, testable = false)
    public static WebArchive control() {
        return Apps.war(CONTROL + ".war", false).addClass(DeviceServlet.class);
    }

    @Deployment(name = APP, managed = false, testable = false)
    public static WebArchive app() {
        return Apps.war(APP + ".war", true).addClasses(LateMdb.class, LateSendServlet.class, Sender.class,
                Tally.class, Tally.Summary.class, Messages.class);
    }

    @ArquillianResource
    private Deployer deployer;

    @ArquillianResource
    private ManagementClient management;

    @Test
    public void anMdbDeployedBeforeItsDeviceComesUpWhenTheDeviceAppearsAndReadinessFollows() throws Exception {
        assertEquals("removed=true", get(CONTROL, "/device?op=remove&name=" + LateMdb.DEVICE).body().strip());
        try {
            deployer.deploy(APP);
            HttpResponse<String> down = ready();
            assertEquals(503, down.statusCode(), "readiness DOWN while the activation waits for its device: "
                    + down.body());
            assertEquals("DOWN", check(down.body()), down.body());
            assertTrue(state(down.body(), "STARTING"), down.body());

            assertEquals("added", get(CONTROL, "/device?op=add&name=" + LateMdb.DEVICE).body().strip());
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            HttpResponse<String> up = ready();
            while (!"UP".equals(check(up.body())) && System.nanoTime() < deadline) {
                Thread.sleep(100);
                up = ready();
            }
            // the adapter's check; the server's own (server-state) may be DOWN after earlier ITs' reload-required changes
            assertEquals("UP", check(up.body()), "srq-activations UP once the device is there: " + up.body());
            assertTrue(state(up.body(), "ACTIVE"), up.body());
            if (!up.body().contains("reload-required")) {
                assertEquals(200, up.statusCode(), up.body());
            }

            HttpResponse<String> sent = get(APP, "/send?n=500");
            assertEquals(200, sent.statusCode(), sent.body());
            assertEquals("sent=500 total=500 missing=0 duplicated=0 problems=0", sent.body().strip());
        } finally {
            get(CONTROL, "/device?op=add&name=" + LateMdb.DEVICE);
            deployer.undeploy(APP);
        }
    }

    /** @return whether the health JSON gives LateMdb's activation that state (data "late": "STATE") */
    private static boolean state(String json, String state) {
        return java.util.regex.Pattern.compile("\"" + LateMdb.NAME + "\"\\s*:\\s*\"" + state + "\"").matcher(json).find();
    }

    /** @return the status (UP, DOWN) of the adapter's check srq-activations in the health JSON, or "" */
    private static String check(String json) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "\"name\"\\s*:\\s*\"srq-activations\"\\s*,\\s*\"status\"\\s*:\\s*\"(UP|DOWN)\"").matcher(json);
        return m.find() ? m.group(1) : "";
    }

    private HttpResponse<String> ready() throws Exception {
        URI uri = URI.create("http://" + management.getMgmtAddress() + ":" + management.getMgmtPort() + "/health/ready");
        return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String app, String path) throws Exception {
        URI uri = URI.create(management.getWebUri() + "/" + app + path);
        return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
