package io.rdma.srq.it;

import io.rdma.srq.it.twoservers.FabricReplyMdb;
import io.rdma.srq.it.twoservers.RemoteCallServlet;
import io.rdma.srq.it.twoservers.TwoServers;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.container.test.api.TargetsContainer;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Two WildFly servers on one machine (the second with port offset 100: arquillian-two-servers.xml)
 * talking over libfabric's tcp on loopback: a servlet on the first calls, through the connection
 * definition {@code java:/eis/SrqFabric} (provider fabric: deployment's fabric.cli), an MDB that listens on
 * the second (provider fabric); every call is answered by its own reply.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
public class TwoServerRequestReplyIT {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Deployment(name = "responder", testable = false)
    @TargetsContainer("server-b")
    public static WebArchive responder() {
        return Apps.war("two-server-responder.war", false).addClasses(FabricReplyMdb.class, TwoServers.class);
    }

    @Deployment(name = "caller", testable = false)
    @TargetsContainer("server-a")
    public static WebArchive caller() {
        return Apps.war("two-server-caller.war", false).addClasses(RemoteCallServlet.class, TwoServers.class);
    }

    @ArquillianResource
    @OperateOnDeployment("caller")
    private URL callerUrl;

    @Test
    public void aServletOnOneServerCallsAnMdbOnTheOtherOverLibfabric() throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(callerUrl + "call?n=1000"))
                .timeout(Duration.ofSeconds(120)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        assertEquals("calls=1000 ok=1000 wrong=0 failed=0 first=", r.body().trim());
    }
}
