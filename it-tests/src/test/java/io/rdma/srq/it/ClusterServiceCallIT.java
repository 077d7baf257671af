package io.rdma.srq.it;

import io.rdma.srq.it.cluster.ClusterCallServlet;
import io.rdma.srq.it.cluster.ClusterEchoMdb;
import org.jboss.arquillian.container.test.api.ContainerController;
import org.jboss.arquillian.container.test.api.Deployer;
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
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two nodes of one WildFly cluster (standalone-ha, JGroups over TCP on 127.0.0.1:
 * arquillian-cluster.xml) and a service called by name over libfabric's tcp: {@link ClusterEchoMdb}
 * serves {@value ClusterEchoMdb#SERVICE} on both nodes, each node's activation published in WildFly's
 * clustering registrar; a servlet on node 1 ({@link ClusterCallServlet}) calls it by name, one call
 * after another, and counts every call (ok + failed = issued, none answered with another's reply).
 * In order: the calls spread over both nodes; an undeploy on node 2 withdraws first and no call
 * fails; node 2 killed (SIGKILL) mid-stream fails at most the calls in flight and the next calls go
 * to node 1 within 2 s; node 2 restarted gets calls again.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
public class ClusterServiceCallIT {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Pattern RESULT = Pattern.compile(
            "issued=(\\d+) ok=(\\d+) failed=(\\d+) wrong=(\\d+) nodes=\\{(.*)} failover_ms=(\\d+) first=(.*)");

    @ArquillianResource
    private ContainerController controller;

    @ArquillianResource
    private Deployer deployer;

    @Deployment(name = "provider-1", testable = false)
    @TargetsContainer("node-1")
    public static WebArchive providerOnNode1() {
        return Apps.war("cluster-provider.war", false).addClass(ClusterEchoMdb.class);
    }

    @Deployment(name = "provider-2", testable = false, managed = false)
    @TargetsContainer("node-2")
    public static WebArchive providerOnNode2() {
        return Apps.war("cluster-provider.war", false).addClass(ClusterEchoMdb.class);
    }

    @Deployment(name = "caller", testable = false)
    @TargetsContainer("node-1")
    public static WebArchive caller() {
        return Apps.war("cluster-caller.war", false).addClass(ClusterCallServlet.class);
    }

    @ArquillianResource
    @OperateOnDeployment("caller")
    private URL callerUrl;

    /** One run of the servlet's calls. */
    private record Calls(long issued, long ok, long failed, long wrong, Map<String, Long> nodes, long failoverMs,
                         String first, String line) {
        long on(String node) {
            return nodes.getOrDefault(node, 0L);
        }
    }

    private Calls calls(long ms) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(callerUrl + "calls?ms=" + ms))
                .timeout(Duration.ofMillis(ms + 60_000)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        Matcher m = RESULT.matcher(r.body().trim());
        assertTrue(m.matches(), r.body());
        Map<String, Long> nodes = new LinkedHashMap<>();
        for (String e : m.group(5).split(", ")) {
            if (!e.isEmpty()) {
                nodes.put(e.substring(0, e.indexOf('=')), Long.parseLong(e.substring(e.indexOf('=') + 1)));
            }
        }
        Calls c = new Calls(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
                Long.parseLong(m.group(4)), nodes, Long.parseLong(m.group(6)), m.group(7), r.body().trim());
        assertEquals(c.issued(), c.ok() + c.failed(), "every call counted: " + c.line());
        assertEquals(0, c.wrong(), "no call answered with another's reply: " + c.line());
        System.out.println("ClusterServiceCallIT: " + c.line());
        return c;
    }

    private CompletableFuture<Calls> callsInBackground(long ms) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return calls(ms);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** Waits until a short run of calls reaches both nodes (node 1 has seen node 2's publication). */
    private void awaitBothNodes() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        Calls c;
        do {
            c = calls(300);
            if (c.on("node-1") > 0 && c.on("node-2") > 0 && c.failed() == 0) {
                return;
            }
            Thread.sleep(500);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("the calls never reached both nodes: " + c.line());
    }

    @Test
    public void callsByNameSpreadFailOverAndSpreadAgainAcrossTwoNodes() throws Exception {
        controller.start("node-2");
        try {
            deployer.deploy("provider-2");
            awaitBothNodes();

            // the calls spread over both nodes (round robin)
            Calls spread = calls(2_000);
            assertEquals(0, spread.failed(), spread.line());
            assertTrue(spread.on("node-1") > spread.ok() / 4 && spread.on("node-2") > spread.ok() / 4,
                    "round robin over both nodes: " + spread.line());

            // an undeploy on node 2 withdraws its publication first: no call fails for it
            CompletableFuture<Calls> duringUndeploy = callsInBackground(4_000);
            Thread.sleep(1_500);
            deployer.undeploy("provider-2");
            Calls undeploy = duringUndeploy.get();
            assertEquals(0, undeploy.failed(), "no call fails for an undeploy: " + undeploy.line());
            assertTrue(undeploy.on("node-2") > 0, undeploy.line());
            Calls after = calls(500);
            assertEquals(0, after.on("node-2"), "nothing goes to node 2 once it undeployed: " + after.line());
            assertEquals(0, after.failed(), after.line());

            // node 2 again, then killed mid-stream
            deployer.deploy("provider-2");
            awaitBothNodes();
            CompletableFuture<Calls> duringKill = callsInBackground(5_000);
            Thread.sleep(1_500);
            long killed = killNode2();
            Calls kill = duringKill.get();
            assertTrue(kill.failed() <= 2, "only the calls in flight to the killed node fail (one caller): " + kill.line());
            assertTrue(kill.failoverMs() <= 2_000, "the next calls go to node 1 within 2 s: " + kill.line());
            Calls survivors = calls(1_000);
            assertEquals(0, survivors.failed(), "calls after the kill all succeed: " + survivors.line());
            assertEquals(survivors.ok(), survivors.on("node-1"), survivors.line());
            System.out.println("ClusterServiceCallIT: node 2 (pid " + killed + ") killed; failover " + kill.failoverMs()
                    + " ms, failed in flight " + kill.failed());

            // node 2 restarted: its provider deploys with it (persisted), and the calls spread again
            controller.stop("node-2"); // the killed process is gone: Arquillian only forgets it
            controller.start("node-2");
            awaitBothNodes();
            Calls again = calls(2_000);
            assertEquals(0, again.failed(), again.line());
            assertTrue(again.on("node-2") > again.ok() / 4, "node 2 gets calls again: " + again.line());
        } finally {
            try {
                deployer.undeploy("provider-2");
            } finally {
                controller.stop("node-2");
            }
        }
    }

    /** SIGKILLs node 2's server JVM (found by its jboss.node.name; no kill(1) needed); returns its pid. */
    private static long killNode2() throws Exception {
        ProcessHandle node2 = ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(c -> c.contains("-Djboss.node.name=node-2")
                        && c.contains("jboss-modules")).orElse(false))
                .findFirst().orElseThrow(() -> new AssertionError("node 2's server process not found"));
        assertTrue(node2.destroyForcibly(), "SIGKILL sent"); // ProcessHandle.destroyForcibly: kill(pid, SIGKILL) on Linux
        node2.onExit().get();
        return node2.pid();
    }
}
