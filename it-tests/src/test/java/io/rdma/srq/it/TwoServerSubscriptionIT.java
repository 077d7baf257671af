package io.rdma.srq.it;

import io.rdma.srq.it.twoservers.PublishServlet;
import io.rdma.srq.it.twoservers.ReceivedServlet;
import io.rdma.srq.it.twoservers.SubscriberMdb;
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
 * An activation on the second server subscribes across to the first ({@code connectTo}, two
 * connections, provider fabric over libfabric's tcp on loopback): the first server's publisher, a
 * verbs-level peer that listens and sends first (as rdma-core's ucmatose server), accepts both
 * connections the activation keeps and sends 1,000 sequence-numbered messages round-robin over
 * them; the MDB on the second server receives every one once, over both connections.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
public class TwoServerSubscriptionIT {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Deployment(name = "subscriber", testable = false)
    @TargetsContainer("server-b")
    public static WebArchive subscriber() {
        return Apps.war("two-server-subscriber.war", false).addClasses(SubscriberMdb.class, ReceivedServlet.class,
                TwoServers.class);
    }

    @Deployment(name = "publisher", testable = false)
    @TargetsContainer("server-a")
    public static WebArchive publisher() {
        return Apps.war("two-server-publisher.war", false).addClasses(PublishServlet.class, TwoServers.class);
    }

    @ArquillianResource
    @OperateOnDeployment("publisher")
    private URL publisherUrl;

    @ArquillianResource
    @OperateOnDeployment("subscriber")
    private URL subscriberUrl;

    @Test
    public void anActivationOnOneServerSubscribesToAPublisherOnTheOther() throws Exception {
        assertEquals("accepted=2 sent=1000 errors=0 unfinished=0", get(publisherUrl + "publish?connections=2&messages=1000"),
                "the subscriber's two connections accepted, every send completed");
        String received = "";
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline && !received.startsWith("received=1000 ")) {
            Thread.sleep(100);
            received = get(subscriberUrl + "received");
        }
        assertEquals("received=1000 repeats=0 qps=2", received, "every message once, over both connections");
    }

    private static String get(String url) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(120)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.body().trim();
    }
}
