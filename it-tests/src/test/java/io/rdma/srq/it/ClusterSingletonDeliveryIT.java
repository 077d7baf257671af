package io.rdma.srq.it;

import io.rdma.srq.it.cluster.ClusterCallServlet;
import io.rdma.srq.it.cluster.PreferredSingletonMdb;
import io.rdma.srq.it.cluster.SingletonEchoMdb;
import org.jboss.as.controller.client.ModelControllerClient;
import org.jboss.as.controller.client.helpers.Operations;
import org.jboss.dmr.ModelNode;
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

import java.net.URL;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cluster-singleton delivery on two WildFly nodes (standalone-ha, arquillian-cluster.xml): the MDB
 * {@link SingletonEchoMdb} ({@code clusterSingleton=true}) is deployed on both nodes and WildFly's
 * singleton policy (the default one: simple election, the member that joined first) elects where it
 * delivers. A servlet on node 1 calls {@value SingletonEchoMdb#SERVICE} by name and counts every call.
 * In order: with both nodes candidates only the elected one (node 1) answers; undeployed on node 1
 * mid-stream, node 2 is elected and takes over (no call answered twice or wrong, the handover's length
 * measured); deployed on node 1 again, the policy elects node 1 again and node 2, deposed, stops
 * delivering — one node at a time throughout. Then a second MDB ({@link PreferredSingletonMdb}) names a
 * policy of its own ({@code singletonPolicy=prefer-node-2}, added on both nodes by management: a simple
 * election preferring node 2): node 2 is its primary, and SIGKILLed mid-stream, node 1 is elected
 * and takes over (at most the calls in flight fail). Last, stop-delivery and start-delivery of the first
 * MDB back to back (the candidate of a new activation replaces the old one's): node 1 delivers again.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
public class ClusterSingletonDeliveryIT {
    private static final String IT = "ClusterSingletonDeliveryIT";

    @ArquillianResource
    private ContainerController controller;

    @ArquillianResource
    private Deployer deployer;

    @Deployment(name = "singleton-1", testable = false, managed = false)
    @TargetsContainer("node-1")
    public static WebArchive singletonOnNode1() {
        return Apps.war("singleton-provider.war", false).addClasses(SingletonEchoMdb.class, io.rdma.srq.it.cluster.NodeEcho.class);
    }

    @Deployment(name = "singleton-2", testable = false, managed = false)
    @TargetsContainer("node-2")
    public static WebArchive singletonOnNode2() {
        return Apps.war("singleton-provider.war", false).addClasses(SingletonEchoMdb.class, io.rdma.srq.it.cluster.NodeEcho.class);
    }

    @Deployment(name = "preferred-1", testable = false, managed = false)
    @TargetsContainer("node-1")
    public static WebArchive preferredOnNode1() {
        return Apps.war("preferred-provider.war", false).addClasses(PreferredSingletonMdb.class,
                io.rdma.srq.it.cluster.NodeEcho.class);
    }

    @Deployment(name = "preferred-2", testable = false, managed = false)
    @TargetsContainer("node-2")
    public static WebArchive preferredOnNode2() {
        return Apps.war("preferred-provider.war", false).addClasses(PreferredSingletonMdb.class,
                io.rdma.srq.it.cluster.NodeEcho.class);
    }

    @Deployment(name = "singleton-caller", testable = false)
    @TargetsContainer("node-1")
    public static WebArchive caller() {
        return Apps.war("singleton-caller.war", false).addClass(ClusterCallServlet.class);
    }

    @ArquillianResource
    @OperateOnDeployment("singleton-caller")
    private URL callerUrl;

    private ClusterCalls calls(long ms) throws Exception {
        return ClusterCalls.run(callerUrl, SingletonEchoMdb.SERVICE, ms, IT);
    }

    private ClusterCalls awaitOnly(String node) throws Exception {
        return awaitOnly(SingletonEchoMdb.SERVICE, node);
    }

    /** Waits until a short run of calls to {@code service} is answered by {@code node} alone, without failures. */
    private ClusterCalls awaitOnly(String service, String node) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        ClusterCalls c = null;
        do {
            try {
                c = ClusterCalls.run(callerUrl, service, 300, IT);
                if (c.failed() == 0 && c.ok() > 0 && c.on(node) == c.ok()) {
                    return c;
                }
            } catch (AssertionError e) { // HTTP 500: no provider listed yet (anything else is a failure)
                if (e.getMessage() == null || !e.getMessage().contains("expected: <200> but was: <500>")) {
                    throw e;
                }
            }
            Thread.sleep(300);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("the calls to " + service + " never went to " + node + " alone: " + (c == null ? "no run" : c.line()));
    }

    /** Cleanup that may find its deployment or server gone already (a failed or killed step). */
    private static void quietly(Step step) {
        try {
            step.run();
        } catch (Exception | AssertionError e) {
            System.out.println(IT + ": cleanup: " + e);
        }
    }

    /**
     * Adds the singleton policy {@value PreferredSingletonMdb#POLICY} to the server managed at
     * {@code port}: the {@code server} cache container, a simple election preferring node-2.
     */
    private static void addPreferringPolicy(int port) throws Exception {
        ModelNode policy = Operations.createAddress("subsystem", "singleton", "singleton-policy", PreferredSingletonMdb.POLICY);
        ModelNode add = Operations.createAddOperation(policy);
        add.get("cache-container").set("server");
        ModelNode election = policy.clone().add("election-policy", "simple");
        ModelNode addElection = Operations.createAddOperation(election);
        addElection.get("name-preferences").add("node-2");
        ModelNode composite = Operations.createCompositeOperation();
        composite.get("steps").add(add).add(addElection);
        try (ModelControllerClient client = ModelControllerClient.Factory.create("remote+http", "127.0.0.1", port)) {
            ModelNode result = client.execute(composite);
            assertTrue(Operations.isSuccessfulOutcome(result), "adding the policy on port " + port + ": " + result);
            assertTrue(!result.hasDefined("response-headers") || !result.get("response-headers").hasDefined("operation-requires-reload"),
                    "the policy works without a reload: " + result);
        }
    }

    /** What moves the singleton: an undeploy or a deploy. */
    private interface Step {
        void run() throws Exception;
    }

    /**
     * Calls by name for 6 s while {@code step} runs 1.5 s in: the calls go to {@code from}, then to
     * {@code to} alone; none fails, and the longest wait between two answers is within 2 s.
     */
    private void handover(String from, String to, String what, Step step) throws Exception {
        CompletableFuture<ClusterCalls> during = ClusterCalls.inBackground(callerUrl, SingletonEchoMdb.SERVICE, 6_000, IT);
        Thread.sleep(1_500);
        step.run();
        ClusterCalls h = during.get();
        assertTrue(h.on(from) > 0 && h.on(to) > 0, from + ", then " + to + ": " + h.line());
        assertEquals(0, h.failed(), "no call fails at a handover (callers wait for the next primary): " + h.line());
        assertTrue(h.gapMs() <= 2_000, to + " took over within 2 s: " + h.line());
        ClusterCalls after = awaitOnly(to);
        System.out.println(IT + ": handover " + from + " -> " + to + " at " + what + ": longest gap " + h.gapMs() + " ms, "
                + h.failed() + " failed of " + h.issued() + "; then " + after.line());
    }

    @Test
    public void oneNodeDeliversAtATimeAndTheOtherTakesOverWhenItLeaves() throws Exception {
        deployer.deploy("singleton-1");
        controller.start("node-2");
        try {
            awaitOnly("node-1"); // node 1, alone, is elected at once
            deployer.deploy("singleton-2");
            Thread.sleep(2_000); // node 2 is a candidate now; were it elected too, it would publish within this

            ClusterCalls both = calls(2_000);
            assertEquals(0, both.failed(), both.line());
            assertEquals(both.ok(), both.on("node-1"), "only the elected node answers: " + both.line());
            assertEquals(0, both.on("node-2"), "node 2 stands by: " + both.line());

            // node 1 leaves (undeploy) mid-stream: node 2 is elected and takes over
            handover("node-1", "node-2", "undeploy on node 1", () -> deployer.undeploy("singleton-1"));
            // node 1 a candidate again: the policy elects it (it joined the group first); node 2 is deposed
            handover("node-2", "node-1", "node 1 elected again", () -> deployer.deploy("singleton-1"));
            ClusterCalls stable = calls(1_000);
            assertEquals(0, stable.failed(), stable.line());
            assertEquals(0, stable.on("node-2"), "node 2 stands by again: " + stable.line());

            // a policy of its own (simple election preferring node-2): node 2 is the primary; killed, node 1 takes over
            addPreferringPolicy(9990);
            addPreferringPolicy(10090);
            deployer.deploy("preferred-1");
            deployer.deploy("preferred-2");
            awaitOnly(PreferredSingletonMdb.SERVICE, "node-2");
            CompletableFuture<ClusterCalls> duringKill = ClusterCalls.inBackground(callerUrl, PreferredSingletonMdb.SERVICE,
                    8_000, IT);
            Thread.sleep(1_500);
            long killed = ClusterCalls.kill("node-2");
            ClusterCalls crash = duringKill.get();
            controller.stop("node-2"); // the killed process is gone: Arquillian only forgets it
            assertTrue(crash.on("node-2") > 0 && crash.on("node-1") > 0, "node 2, then node 1: " + crash.line());
            assertTrue(crash.failed() <= 2, "only the calls in flight to the killed primary fail: " + crash.line());
            assertTrue(crash.gapMs() <= 5_000, "node 1 took over: " + crash.line());
            ClusterCalls survivor = awaitOnly(PreferredSingletonMdb.SERVICE, "node-1");
            System.out.println(IT + ": primary node-2 (pid " + killed + ") killed; node-1 elected: longest gap " + crash.gapMs()
                    + " ms, " + crash.failed() + " failed of " + crash.issued() + "; then " + survivor.line());

            // stop-delivery, start-delivery at once (a redeploy): the new activation's candidate replaces the old one
            try (ModelControllerClient client = ModelControllerClient.Factory.create("remote+http", "127.0.0.1", 9990)) {
                for (String op : new String[]{"stop-delivery", "start-delivery"}) {
                    ModelNode result = client.execute(Management.mdbOperation("singleton-provider.war", "SingletonEchoMdb", op));
                    assertTrue(Operations.isSuccessfulOutcome(result), op + ": " + result);
                }
            }
            ClusterCalls again = awaitOnly(SingletonEchoMdb.SERVICE, "node-1");
            System.out.println(IT + ": elected again right after stop-delivery + start-delivery: " + again.line());
        } finally {
            quietly(() -> deployer.undeploy("preferred-2"));
            quietly(() -> deployer.undeploy("singleton-2"));
            quietly(() -> controller.stop("node-2"));
            quietly(() -> deployer.undeploy("preferred-1"));
            quietly(() -> deployer.undeploy("singleton-1"));
        }
    }
}
