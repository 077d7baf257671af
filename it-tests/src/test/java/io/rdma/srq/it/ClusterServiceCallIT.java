package io.rdma.srq.it;

import io.rdma.srq.it.cluster.ClusterCallServlet;
import io.rdma.srq.it.cluster.ClusterEchoMdb;
import io.rdma.srq.it.cluster.ClusterSubscriberMdb;
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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

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
 * to node 1 within 2 s; node 2 restarted gets calls again. Beside the calls, a subscription by name on
 * node 1 ({@link ClusterSubscriberMdb}, {@code connectTo=service:cluster-echo}, 2 connections) moves a
 * connection to node 2 when it joins and again when it is restarted (its SRQRA0507 lines in node 1's log).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
public class ClusterServiceCallIT {
    @ArquillianResource
    private ContainerController controller;

    @ArquillianResource
    private Deployer deployer;

    @Deployment(name = "provider-1", testable = false)
    @TargetsContainer("node-1")
    public static WebArchive providerOnNode1() {
        return Apps.war("cluster-provider.war", false).addClasses(ClusterEchoMdb.class, io.rdma.srq.it.cluster.NodeEcho.class);
    }

    @Deployment(name = "provider-2", testable = false, managed = false)
    @TargetsContainer("node-2")
    public static WebArchive providerOnNode2() {
        return Apps.war("cluster-provider.war", false).addClasses(ClusterEchoMdb.class, io.rdma.srq.it.cluster.NodeEcho.class);
    }

    @Deployment(name = "subscriber", testable = false, managed = false)
    @TargetsContainer("node-1")
    public static WebArchive subscriber() {
        return Apps.war("cluster-subscriber.war", false).addClass(ClusterSubscriberMdb.class);
    }

    @Deployment(name = "caller", testable = false)
    @TargetsContainer("node-1")
    public static WebArchive caller() {
        return Apps.war("cluster-caller.war", false).addClass(ClusterCallServlet.class);
    }

    @ArquillianResource
    @OperateOnDeployment("caller")
    private URL callerUrl;

    private ClusterCalls calls(long ms) throws Exception {
        return ClusterCalls.run(callerUrl, ClusterEchoMdb.SERVICE, ms, "ClusterServiceCallIT");
    }

    private CompletableFuture<ClusterCalls> callsInBackground(long ms) {
        return ClusterCalls.inBackground(callerUrl, ClusterEchoMdb.SERVICE, ms, "ClusterServiceCallIT");
    }

    /** Waits until a short run of calls reaches both nodes (node 1 has seen node 2's publication). */
    private void awaitBothNodes() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        ClusterCalls c;
        do {
            c = calls(300);
            if (c.on("node-1") > 0 && c.on("node-2") > 0 && c.failed() == 0) {
                return;
            }
            Thread.sleep(500);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("the calls never reached both nodes: " + c.line());
    }

    /** {@return node 1's SRQRA0507 lines of the subscriber: its connections moved between providers} */
    private static List<String> subscriberMoves() throws Exception {
        Path log = Path.of(System.getProperty("it.server.cluster.a.base.dir"), "log", "server.log");
        try (Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
            return lines.filter(l -> l.contains("SRQRA0507: activation " + ClusterSubscriberMdb.NAME + ":")).toList();
        }
    }

    /** Waits until the subscriber logged more moves than {@code before}; returns the new ones. */
    private static List<String> awaitMoves(int before, String why) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        List<String> moves;
        do {
            moves = subscriberMoves();
            if (moves.size() > before) {
                return moves.subList(before, moves.size());
            }
            Thread.sleep(200);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("the subscription did not rebalance " + why + ": " + moves);
    }

    @Test
    public void callsByNameSpreadFailOverAndSpreadAgainAcrossTwoNodes() throws Exception {
        deployer.deploy("subscriber"); // connectTo=service:cluster-echo: both connections to node 1 for now
        int movesBefore = subscriberMoves().size();
        controller.start("node-2");
        try {
            deployer.deploy("provider-2");
            awaitBothNodes();
            List<String> joined = awaitMoves(movesBefore, "when node 2 joined");
            System.out.println("ClusterServiceCallIT: subscription rebalanced at join: " + joined);

            // the calls spread over both nodes (round robin)
            ClusterCalls spread = calls(2_000);
            assertEquals(0, spread.failed(), spread.line());
            assertTrue(spread.on("node-1") > spread.ok() / 4 && spread.on("node-2") > spread.ok() / 4,
                    "round robin over both nodes: " + spread.line());

            // an undeploy on node 2 withdraws its publication first: no call fails for it
            CompletableFuture<ClusterCalls> duringUndeploy = callsInBackground(4_000);
            Thread.sleep(1_500);
            deployer.undeploy("provider-2");
            ClusterCalls undeploy = duringUndeploy.get();
            assertEquals(0, undeploy.failed(), "no call fails for an undeploy: " + undeploy.line());
            assertTrue(undeploy.on("node-2") > 0, undeploy.line());
            ClusterCalls after = calls(500);
            assertEquals(0, after.on("node-2"), "nothing goes to node 2 once it undeployed: " + after.line());
            assertEquals(0, after.failed(), after.line());

            // node 2 again, then killed mid-stream
            deployer.deploy("provider-2");
            awaitBothNodes();
            CompletableFuture<ClusterCalls> duringKill = callsInBackground(5_000);
            Thread.sleep(1_500);
            long killed = ClusterCalls.kill("node-2");
            ClusterCalls kill = duringKill.get();
            assertTrue(kill.failed() <= 2, "only the calls in flight to the killed node fail (one caller): " + kill.line());
            assertTrue(kill.failoverMs() <= 2_000, "the next calls go to node 1 within 2 s: " + kill.line());
            ClusterCalls survivors = calls(1_000);
            assertEquals(0, survivors.failed(), "calls after the kill all succeed: " + survivors.line());
            assertEquals(survivors.ok(), survivors.on("node-1"), survivors.line());
            System.out.println("ClusterServiceCallIT: node 2 (pid " + killed + ") killed; failover " + kill.failoverMs()
                    + " ms, failed in flight " + kill.failed());

            // node 2 restarted: its provider deploys with it (persisted), and the calls spread again
            controller.stop("node-2"); // the killed process is gone: Arquillian only forgets it
            int movesBeforeRestart = subscriberMoves().size();
            controller.start("node-2");
            awaitBothNodes();
            List<String> rejoined = awaitMoves(movesBeforeRestart, "when node 2 was restarted");
            System.out.println("ClusterServiceCallIT: subscription rebalanced at restart: " + rejoined);
            ClusterCalls again = calls(2_000);
            assertEquals(0, again.failed(), again.line());
            assertTrue(again.on("node-2") > again.ok() / 4, "node 2 gets calls again: " + again.line());
        } finally {
            try {
                deployer.undeploy("provider-2");
            } finally {
                try {
                    controller.stop("node-2");
                } finally {
                    deployer.undeploy("subscriber");
                }
            }
        }
    }
}
