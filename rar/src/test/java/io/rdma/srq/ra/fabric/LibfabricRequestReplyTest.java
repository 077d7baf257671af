package io.rdma.srq.ra.fabric;

import io.rdma.srq.api.PeerUnavailableException;
import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.testing.ConcurrentCallers;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import io.rdma.srq.ra.support.admission.RejectReason;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.ConnectRejectedException;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.fabric.FabricProvider;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The adapter on the fabric provider (libfabric's tcp over loopback), container-less: an
 * activation whose MDB-like listener replies, and pooled connections that call it — the path two
 * servers take — with every call answered by its own reply, a peer's disconnect releasing its
 * connection at the activation, a call to a port nobody listens on failing as on rdma_cm, and a
 * foreign peer with garbage private data refused with its reason and counted, as on rdma_cm.
 */
class LibfabricRequestReplyTest extends LibfabricAdapterTest {
    private SrqActivation activate() throws Exception {
        return activate((String) null);
    }

    private SrqActivation activate(String authKey) throws Exception {
        endpoints.recordPayloads(false);
        endpoints.behaviour(TestEndpointFactory::echo);
        return activate(spec -> {
            if (authKey != null) {
                spec.setAuthKey(authKey);
            }
        });
    }

    private static InetSocketAddress at(SrqActivation a) {
        return at(a, 1);
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
            waitUntil(() -> a.statistics().delivered() == (long) threads * perThread, "every call delivered");
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
        waitUntil(() -> a.statistics().delivered() == n, "the burst's calls delivered");
        assertEquals(0, a.statistics().rejected(), "nothing refused: " + a.statistics().rejectedByReason());
    }

    @Test
    void aPeerThatGoesAwayReleasesItsConnectionAtTheActivation() throws Exception {
        SrqActivation a = activate();
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer p = c.connect(at(a), T);
            assertEquals(2, p.call(ByteBuffer.wrap(new byte[] {1, 2}), T).length());
            waitUntil(() -> a.statistics().connections() == 1, "the connection counted");
            p.close();
        }
        cm.flush(); // the pool destroys the connection: its QP to the activation disconnects
        waitUntil(() -> a.statistics().connections() == 0 && a.statistics().closedConnections() == 1,
                "the connection released");
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
            waitUntil(() -> a.statistics().rejected() == 1, "the refusal counted");
            assertEquals(1L, a.statistics().rejectedByReason().get(reason.name()), a.statistics().rejectedByReason()
                    + " for " + reason);
        }
        assertEquals(0, a.statistics().connections(), "nothing of the refused request stays");
    }
}
