package io.rdma.srq.ra.fabric;

import io.rdma.srq.api.ActivationState;
import io.rdma.srq.api.PeerUnavailableException;
import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqMessage;
import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.ra.cluster.SingletonElection;
import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import jakarta.resource.ResourceException;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cluster-singleton delivery ({@code clusterSingleton=true}) over the fabric provider, container-less,
 * with the election scripted by the test as WildFly's singleton policy would run it: a candidate that
 * is not elected is STANDBY (nothing open, nothing published); elected, it opens, publishes and
 * answers calls by name; deposed mid-stream it withdraws and stops as a deactivation does (every
 * call succeeds or fails with PeerUnavailableException, none answered wrong) and is STANDBY again,
 * its counters kept; it leaves the election only after its run stopped; a primary whose open fails
 * for good is FAILED and steps aside. Without a singleton policy (the adapter's own local election)
 * it opens at once, and a second candidate of one name on one node is refused naming
 * clusterSingleton.
 */
class ClusterSingletonDeliveryTest extends LibfabricAdapterTest {

    /** An election the test runs: it elects and deposes, and records when each candidate left. */
    static final class ScriptedElection implements SingletonElection {
        final Map<String, Candidate> candidates = new ConcurrentHashMap<>();
        /** Per name, the policy it joined under. */
        final Map<String, String> policies = new ConcurrentHashMap<>();
        /** Per name, what the candidate's activation said at the moment it left. */
        final Map<String, String> leftWhen = new ConcurrentHashMap<>();
        volatile java.util.function.Supplier<String> stateAtLeave = () -> "";

        @Override
        public Candidacy join(String name, String policy, Candidate candidate) {
            candidates.put(name, candidate);
            policies.put(name, policy);
            AtomicBoolean left = new AtomicBoolean();
            return new Candidacy() {
                @Override
                public boolean electedAtOnce() {
                    return false;
                }

                @Override
                public void close() {
                    if (left.compareAndSet(false, true)) {
                        candidates.remove(name);
                        leftWhen.put(name, stateAtLeave.get());
                    }
                }
            };
        }

        @Override
        public String describe() {
            return "scripted by the test";
        }
    }

    private final ScriptedElection election = new ScriptedElection();

    private SrqActivationSpec spec(String srqName, String service) throws ResourceException {
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setProvider("fabric");
        spec.setDevice("tcp");
        spec.setListenAddress("127.0.0.1");
        spec.setListenPort("0");
        spec.setSrqMaxWr("256");
        spec.setSrqLimit("0");
        spec.setSrqName(srqName);
        spec.setServiceName(service);
        spec.setClusterSingleton("true");
        spec.setResourceAdapter(ra);
        return spec;
    }

    private SrqActivation singleton(TestEndpointFactory f, String srqName, String service) throws Exception {
        f.recordPayloads(false);
        f.behaviour(TestEndpointFactory::echo);
        ra.endpointActivation(f, spec(srqName, service));
        return ra.activations().stream().filter(a -> a.name().equals(srqName)).findFirst().orElseThrow();
    }

    @Test
    void standbyUntilElectedThenServesAndWhenDeposedMidStreamStopsWithEveryCallAccountedFor() throws Exception {
        ra.useSingletonElection(election);
        SrqActivation a = singleton(endpoints, "lone", "lone-service");
        assertEquals(ActivationState.STANDBY, a.state(), "not elected: STANDBY");
        assertNull(a.listenAddress(), "nothing open while STANDBY");
        assertEquals(0, ra.serviceDirectory().providers("lone-service").size(), "nothing published while STANDBY");
        assertFalse(a.deviceState().healthy(), "not healthy while nothing is open: " + a.deviceState());

        election.candidates.get("lone-service").elected();
        assertEquals(ActivationState.ACTIVE, a.state(), "elected: open");
        assertEquals(1, ra.serviceDirectory().providers("lone-service").size(), "published once elected");
        try (SrqConnection c = factory.getConnection(); SrqPeer lone = c.connect("lone-service", T)) {
            for (int i = 0; i < 50; i++) {
                assertEquals("call-" + i, text(lone.call(request(i), T)));
            }
        }

        // deposed while a caller calls by name: each call succeeds with its own reply or fails PeerUnavailable
        long[] counts = new long[3]; // ok, unavailable, wrong
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService caller = Executors.newSingleThreadExecutor();
        Future<?> calls = caller.submit(() -> {
            try (SrqConnection c = factory.getConnection(); SrqPeer lone = c.connect("lone-service", T)) {
                for (long n = 0; !stop.get(); n++) {
                    try {
                        if (text(lone.call(request(n), java.time.Duration.ofSeconds(3))).equals("call-" + n)) {
                            counts[0]++;
                        } else {
                            counts[2]++;
                        }
                    } catch (PeerUnavailableException | io.rdma.srq.api.CallTimedOutException e) {
                        counts[1]++;
                    }
                }
            }
            return null;
        });
        Thread.sleep(300);
        election.candidates.get("lone-service").deposed();
        assertEquals(ActivationState.STANDBY, a.state(), "deposed: STANDBY");
        assertNull(a.listenAddress(), "its run is stopped");
        assertEquals(0, ra.serviceDirectory().providers("lone-service").size(), "withdrawn");
        Thread.sleep(300);
        stop.set(true);
        calls.get();
        caller.shutdown();
        assertTrue(counts[0] > 0, "calls succeeded before the deposition");
        assertEquals(0, counts[2], "no call answered with another's reply");
        long deliveredBefore = a.statistics().delivered();
        assertEquals(50 + counts[0], deliveredBefore, "every call that succeeded ran once, and only those");

        // elected again: serves again, counters keep growing across runs
        election.candidates.get("lone-service").elected();
        assertEquals(ActivationState.ACTIVE, a.state());
        try (SrqConnection c = factory.getConnection(); SrqPeer lone = c.connect("lone-service", T)) {
            assertEquals("call-again", text(lone.call(ByteBuffer.wrap("call-again".getBytes(StandardCharsets.US_ASCII)), T)));
        }
        assertEquals(deliveredBefore + 1, a.statistics().delivered(), "counters kept across STANDBY");

        // deactivation: leaves the election only after the run stopped
        election.stateAtLeave = () -> a.state() + " freed=" + a.freed();
        ra.endpointDeactivation(endpoints, null);
        assertEquals("STOPPED freed=true", election.leftWhen.get("lone-service"),
                "left the election with the run already stopped and freed");
        assertFalse(election.candidates.containsKey("lone-service"));
    }

    @Test
    void deactivatedWhileStandbyLeavesTheElectionAndAnElectionAfterwardsOpensNothing() throws Exception {
        ra.useSingletonElection(election);
        SrqActivation a = singleton(endpoints, "idle", "idle-service");
        SingletonElection.Candidate c = election.candidates.get("idle-service");
        ra.endpointDeactivation(endpoints, null);
        assertEquals(ActivationState.STOPPED, a.state());
        assertFalse(election.candidates.containsKey("idle-service"), "left the election");
        c.elected(); // a late election (the policy's stop raced the removal): nothing opens
        assertEquals(ActivationState.STOPPED, a.state());
        assertNull(a.listenAddress());
    }

    @Test
    void aPrimaryWhoseOpenFailsForGoodIsFailedAndStepsAsideForAnotherNode() throws Exception {
        ra.useSingletonElection(election);
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            SrqActivationSpec spec = spec("clash", "clash-service");
            spec.setListenPort(String.valueOf(taken.getLocalPort())); // EADDRINUSE once elected
            ra.endpointActivation(endpoints, spec);
            SrqActivation a = ra.activations().getFirst();
            assertEquals(ActivationState.STANDBY, a.state());
            election.candidates.get("clash-service").elected();
            assertEquals(ActivationState.FAILED, a.state(), "the open failed for good: FAILED");
            waitUntil(() -> !election.candidates.containsKey("clash-service"), "stepped aside: another node may be elected");
        }
    }

    @Test
    void withoutASingletonPolicyTheNodeIsThePrimaryAtOnceAndASecondCandidateOfOneNameIsRefused() throws Exception {
        SrqActivation a = singleton(endpoints, "local-a", "local-service");
        assertEquals(ActivationState.ACTIVE, a.state(), "the local election: primary at once");
        try (SrqConnection c = factory.getConnection(); SrqPeer s = c.connect("local-service", T)) {
            assertEquals("call-1", text(s.call(request(1), T)));
        }
        TestEndpointFactory second = new TestEndpointFactory();
        ResourceException e = assertThrows(ResourceException.class, () -> singleton(second, "local-b", "local-service"));
        assertTrue(e.getMessage().contains("clusterSingleton") && e.getMessage().contains("local-service"), e.getMessage());

        ra.endpointDeactivation(endpoints, null); // the name is free again
        SrqActivation b = singleton(second, "local-b", "local-service");
        assertEquals(ActivationState.ACTIVE, b.state());
        List<String> names = new ArrayList<>();
        ra.activations().forEach(x -> names.add(x.name()));
        assertEquals(List.of("local-b"), names);
    }

    @Test
    void theNamedPolicyIsTheOneThatElects() throws Exception {
        ra.useSingletonElection(election);
        SrqActivationSpec spec = spec("preferred", "preferred-service");
        spec.setSingletonPolicy("prefer-node-2");
        ra.endpointActivation(endpoints, spec);
        assertEquals("prefer-node-2", election.policies.get("preferred-service"));
        SrqActivation a = singleton(new TestEndpointFactory(), "default-policy", "default-service");
        assertEquals("", election.policies.get("default-service"), "empty: the server's default policy");
        assertEquals(ActivationState.STANDBY, a.state());
    }

    @Test
    void aPolicyNameWithoutASingletonOrWithoutSuchAPolicyIsRefusedNamingSingletonPolicy() throws Exception {
        SrqActivationSpec notSingleton = spec("plain", "plain-service");
        notSingleton.setClusterSingleton("false");
        notSingleton.setSingletonPolicy("prefer-node-2");
        ResourceException e = assertThrows(ResourceException.class, () -> ra.endpointActivation(endpoints, notSingleton));
        assertTrue(e.getMessage().contains("singletonPolicy") && e.getMessage().contains("clusterSingleton=true"), e.getMessage());

        SrqActivationSpec badName = spec("bad-policy", "bad-policy-service");
        badName.setSingletonPolicy("no.dots");
        e = assertThrows(ResourceException.class, () -> ra.endpointActivation(endpoints, badName));
        assertTrue(e.getMessage().contains("singletonPolicy") && e.getMessage().contains("no.dots"), e.getMessage());

        SrqActivationSpec noSuchPolicy = spec("no-policy", "no-policy-service"); // the local election: no policies at all
        noSuchPolicy.setSingletonPolicy("prefer-node-2");
        e = assertThrows(ResourceException.class, () -> ra.endpointActivation(endpoints, noSuchPolicy));
        assertTrue(e.getMessage().contains("singletonPolicy") && e.getMessage().contains("prefer-node-2"), e.getMessage());
        assertTrue(ra.activations().isEmpty(), "nothing activated");
    }

    @Test
    void aValueThatIsNotABooleanIsRefusedNamingClusterSingleton() throws Exception {
        SrqActivationSpec spec = spec("bad", "bad-service");
        spec.setClusterSingleton("maybe");
        ResourceException e = assertThrows(ResourceException.class, () -> ra.endpointActivation(endpoints, spec));
        assertTrue(e.getMessage().contains("clusterSingleton"), e.getMessage());
    }
}
