package io.rdma.srq.ra.fabric;

import io.rdma.srq.api.PeerUnavailableException;
import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.testing.ConcurrentCallers;
import io.rdma.srq.ra.testing.SoftAdapterTest;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import io.rdma.srq.ra.support.admission.RejectReason;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.ConnectRejectedException;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.fabric.FabricProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The adapter on the fabric provider (libfabric's tcp over loopback), container-less: an
 * activation whose MDB-like listener replies, and pooled connections that call it — the path two
 * servers take — with every call answered by its own reply, a peer's disconnect releasing its
 * connection at the activation, a call to a port nobody listens on failing as on rdma_cm, and a
 * foreign peer with garbage private data refused with its reason and counted, as on rdma_cm.
 */
class LibfabricRequestReplyTest extends SoftAdapterTest {
    private static final Duration T = Duration.ofSeconds(10);

    private final TestEndpointFactory endpoints = new TestEndpointFactory();

    @BeforeEach
    void onFabric() {
        assumeTrue(new FabricProvider().unavailableReason().isEmpty(),
                () -> "libfabric with tcp MSG endpoints is not installed: " + new FabricProvider().unavailableReason());
        mcf.setProvider("fabric");
        mcf.setDevice("tcp");
    }

    private SrqActivation activate() throws Exception {
        return activate(null);
    }

    private SrqActivation activate(String authKey) throws Exception {
        endpoints.recordPayloads(false);
        endpoints.behaviour(TestEndpointFactory::echo);
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setProvider("fabric");
        spec.setDevice("tcp");
        spec.setListenAddress("0.0.0.0");
        spec.setListenPort("0");
        spec.setBufferSize("4096");
        spec.setSrqMaxWr("256");
        spec.setSrqLimit("0");
        spec.setMaxConcurrency("2");
        if (authKey != null) {
            spec.setAuthKey(authKey);
        }
        spec.setResourceAdapter(ra);
        ra.endpointActivation(endpoints, spec);
        return ra.activations().getFirst();
    }

    private static InetSocketAddress at(SrqActivation a) {
        return at(a, 1);
    }

    /** {@return the activation at 127.0.0.{@code host}: every 127/8 address is the loopback, a peer of its own} */
    private static InetSocketAddress at(SrqActivation a, int host) {
        return new InetSocketAddress("127.0.0." + host, a.listenAddress().getPort());
    }

    @Test
    void fourCallersOverTwoPeersEachGetExactlyTheirOwnReplies() throws Exception {
        SrqActivation a = activate();
        int threads = 4;
        int perThread = 500;
        try (SrqConnection c = factory.getConnection()) {
            List<SrqPeer> peers = List.of(c.connect(at(a, 1), T), c.connect(at(a, 2), T));
            ConcurrentCallers run = ConcurrentCallers.run(peers, threads, perThread, T);
            assertNull(run.failure());
            assertEquals(0, run.wrong(), "every caller got exactly its own reply");
            waitUntil(() -> a.statistics().delivered() == (long) threads * perThread);
            assertEquals(2, a.statistics().connections(), "one connection per peer, over tcp");
        }
    }

    @Test
    void eightPooledConnectionsConnectingAtOnceAllGetThrough() throws Exception {
        SrqActivation a = activate();
        int n = 8;
        java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(n);
        List<java.util.concurrent.Future<Integer>> calls = new java.util.ArrayList<>();
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(n)) {
            for (int i = 0; i < n; i++) {
                calls.add(pool.submit(() -> {
                    try (SrqConnection c = factory.getConnection()) {
                        start.await();
                        return c.connect(at(a), T).call(ByteBuffer.wrap(new byte[] {1, 2, 3}), T).length();
                    }
                }));
            }
            for (var f : calls) {
                assertEquals(3, f.get(), "every connect of the burst established and answered");
            }
        }
        waitUntil(() -> a.statistics().delivered() == n);
        assertEquals(0, a.statistics().rejected(), "nothing refused: " + a.statistics().rejectedByReason());
    }

    @Test
    void aPeerThatGoesAwayReleasesItsConnectionAtTheActivation() throws Exception {
        SrqActivation a = activate();
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer p = c.connect(at(a), T);
            assertEquals(2, p.call(ByteBuffer.wrap(new byte[] {1, 2}), T).length());
            waitUntil(() -> a.statistics().connections() == 1);
            p.close();
        }
        cm.flush(); // the pool destroys the connection: its QP to the activation disconnects
        waitUntil(() -> a.statistics().connections() == 0 && a.statistics().closedConnections() == 1);
        assertEquals(1, a.statistics().delivered());
    }

    @Test
    void connectingWhereNobodyListensIsPeerUnavailable() throws Exception {
        SrqActivation a = activate();
        InetSocketAddress nobody = new InetSocketAddress("127.0.0.1", a.listenAddress().getPort() + 1 == 65536 ? 1
                : a.listenAddress().getPort() + 1);
        try (SrqConnection c = factory.getConnection()) {
            PeerUnavailableException e = assertThrows(PeerUnavailableException.class, () -> c.connect(nobody, T));
            assertTrue(e.getMessage().contains(nobody.toString()) || e.getMessage().contains(String.valueOf(nobody.getPort())),
                    e.getMessage());
        }
    }

    @Test
    void aForeignPeerWithGarbagePrivateDataIsRefusedAndCounted() throws Exception {
        ra.setAuthKeys("k1=" + java.util.Base64.getEncoder().encodeToString(new byte[32]));
        SrqActivation a = activate("k1");
        byte[] garbage = new byte[40];
        new java.util.Random(7).nextBytes(garbage);
        try (Context ctx = new FabricProvider().open("tcp")) { // a peer that is not this adapter: the verbs SPI alone
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(16, null);
            QueuePair qp = pd.createQp(QpInitAttributes.builder(QpInitAttributes.QpType.RC).cq(cq).maxSendWr(4)
                    .maxRecvWr(1).maxRecvSge(1).build());
            ConnectRejectedException e = assertThrows(ConnectRejectedException.class,
                    () -> ctx.connect(qp, at(a), T, garbage));
            RejectReason reason = RejectReason.fromPrivateData(e.privateData()).orElseThrow();
            waitUntil(() -> a.statistics().rejected() == 1);
            assertEquals(1L, a.statistics().rejectedByReason().get(reason.name()), a.statistics().rejectedByReason()
                    + " for " + reason);
        }
        assertEquals(0, a.statistics().connections(), "nothing of the refused request stays");
    }

    private static void waitUntil(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + T.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + T);
            }
            Thread.sleep(5);
        }
    }
}
