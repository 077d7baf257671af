package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.SrqResourceAdapter;
import io.rdma.srq.ra.support.admission.AuthKey;
import io.rdma.srq.ra.support.admission.PeerToken;
import io.rdma.srq.ra.support.admission.RejectReason;
import io.rdma.srq.ra.testing.SoftActivationTest;
import io.rdma.srq.ra.testing.SoftSender;
import io.rdma.srq.ra.testing.TestBootstrapContext;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.ConnectRejectedException;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.soft.SoftProvider;
import io.rdma.srq.verbs.testing.LogLines;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.InvalidPropertyException;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Admission control of an activation on the soft device: who gets in, why the others are rejected
 * (the reason arrives in the reject's private data and is counted), that nothing of a rejected
 * request stays allocated, and that accepted peers keep being served during a flood.
 */
class AdmissionActivationTest extends SoftActivationTest {
    private static final byte[] KEY = bytes(32, 5);
    private static final byte[] OTHER_KEY = bytes(32, 9);

    {
        ra.setAuthKeys("k1=" + Base64.getEncoder().encodeToString(KEY) + ", old=" + Base64.getEncoder().encodeToString(OTHER_KEY));
    }

    private static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed * 17 + i);
        }
        return b;
    }

    /** With srqMaxWr 128, srqLimit 0 and bufferSize 256 unless the properties say otherwise. */
    @Override
    protected SrqActivationSpec spec(String... properties) throws Exception {
        return set(super.spec("srqMaxWr", "128", "srqLimit", "0", "bufferSize", "256"), properties);
    }

    private SoftSender connect(String device, SrqActivation a, byte[] privateData) throws VerbsException {
        SoftSender s = new SoftSender(device, a.listenAddress(), 64, privateData);
        senders.add(s);
        return s;
    }

    private static byte[] token(byte[] key, SrqActivation a, long now) {
        return PeerToken.create(new AuthKey("t", key), a.listenAddress(), now);
    }

    /** Connects and expects a reject carrying {@code reason}; nothing of the attempt stays open. */
    private static void rejected(RejectReason reason, String device, SrqActivation a, byte[] privateData) {
        int live = SoftProvider.liveObjects();
        ConnectRejectedException e = assertThrows(ConnectRejectedException.class,
                () -> new SoftSender(device, a.listenAddress(), 64, privateData).close());
        assertEquals(reason, RejectReason.fromPrivateData(e.privateData()).orElseThrow(), e.getMessage());
        assertEquals(live, SoftProvider.liveObjects(), "a rejected request leaks nothing on either side");
    }


    private static long count(SrqActivation a, RejectReason r) {
        return a.statistics().rejectedByReason().get(r.name());
    }

    @Test
    void withAKeyOnlyAFreshTokenOfAConfiguredKeyGetsInAndOnlyOnce() throws Exception {
        SrqActivation a = activate("authKey", "k1");
        long now = System.currentTimeMillis();
        rejected(RejectReason.NO_TOKEN, "soft_rxe0", a, new byte[0]);
        rejected(RejectReason.BAD_TOKEN, "soft_rxe0", a, token(OTHER_KEY, a, now));
        rejected(RejectReason.BAD_TOKEN, "soft_rxe0", a, PeerToken.create(new AuthKey("t", KEY),
                new InetSocketAddress(a.listenAddress().getAddress(), a.listenAddress().getPort() + 1), now));
        rejected(RejectReason.EXPIRED, "soft_rxe0", a, token(KEY, a, now - 31_000));
        rejected(RejectReason.EXPIRED, "soft_rxe0", a, token(KEY, a, now + 31_000));
        byte[] good = token(KEY, a, now);
        SoftSender in = connect("soft_rxe0", a, good);
        rejected(RejectReason.REPLAYED, "soft_rxe0", a, good);
        in.send(1, 64, null);
        in.drain(Duration.ofSeconds(5));
        await(() -> endpoints.received.size() == 1, "the authenticated peer's message");
        ActivationStatistics st = a.statistics();
        assertEquals(1, st.connections());
        assertEquals(1, count(a, RejectReason.NO_TOKEN));
        assertEquals(2, count(a, RejectReason.BAD_TOKEN));
        assertEquals(2, count(a, RejectReason.EXPIRED));
        assertEquals(1, count(a, RejectReason.REPLAYED));
        assertEquals(6, st.rejected());
    }

    @Test
    void keyRotationAcceptsEveryNamedKey() throws Exception {
        SrqActivation a = activate("authKey", "k1, old");
        connect("soft_rxe0", a, token(OTHER_KEY, a, System.currentTimeMillis()));
        connect("soft_rxe0", a, token(KEY, a, System.currentTimeMillis()));
        await(() -> a.statistics().connections() == 2, "two connections");
        assertEquals(0, a.statistics().rejected());
    }

    @Test
    void aPeerOutsideAllowedPeersIsRejected() throws Exception {
        SrqActivation a = activate("allowedPeers", "10.77.1.1/32, fd00::/8");
        rejected(RejectReason.NOT_ALLOWED, "soft_mlx5_0", a, new byte[0]);   // 10.77.1.2
        connect("soft_rxe0", a, new byte[0]);                              // 10.77.1.1
        assertEquals(1, count(a, RejectReason.NOT_ALLOWED));
    }

    @Test
    void maxConnectionsAndMaxConnectionsPerPeerHoldAndASlotComesBackWhenAConnectionCloses() throws Exception {
        SrqActivation a = activate("maxConnections", "3", "maxConnectionsPerPeer", "2");
        SoftSender first = connect("soft_rxe0", a, new byte[0]);
        connect("soft_rxe0", a, new byte[0]);
        rejected(RejectReason.MAX_CONNECTIONS_PER_PEER, "soft_rxe0", a, new byte[0]);
        connect("soft_mlx5_0", a, new byte[0]);
        rejected(RejectReason.MAX_CONNECTIONS, "soft_mlx5_0", a, new byte[0]);
        senders.remove(first);
        first.close();
        // the slot comes back with the QP's destroy, once its last completions were polled
        await(() -> a.statistics().closedConnections() == 1, "the closed connection's QP destroyed");
        assertEquals(2, a.statistics().connections());
        connect("soft_rxe0", a, new byte[0]);
        await(() -> a.statistics().connections() == 3, "the freed slot taken again");
        assertEquals(1, count(a, RejectReason.MAX_CONNECTIONS_PER_PEER));
        assertEquals(1, count(a, RejectReason.MAX_CONNECTIONS));
    }

    @Test
    void aFloodOfTenThousandConnectRequestsIsRejectedCountedLeaksNothingAndTheAcceptedPeerIsStillServed()
            throws Exception {
        SrqActivation a = activate("authKey", "k1", "connectRateLimit", "2000");
        SoftSender legit = connect("soft_rxe0", a, token(KEY, a, System.currentTimeMillis()));
        int live = SoftProvider.liveObjects();
        int threads = 4;
        int perThread = 2500;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<int[]>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String device = t % 2 == 0 ? "soft_mlx5_0" : "soft_rxe0";
            results.add(pool.submit(() -> flood(device, a.listenAddress(), perThread)));
        }
        long sent = 0;
        while (!results.stream().allMatch(Future::isDone)) {
            legit.send(sent++, 64, null);
            if (sent % 64 == 0) {
                legit.drain(Duration.ofSeconds(5));
                assertTrue(SoftProvider.liveObjects() <= live + 2 * threads * 5,
                        "only the flooders' own objects are added, nothing per request");
            }
        }
        int rejected = 0;
        int accepted = 0;
        for (Future<int[]> f : results) {
            rejected += f.get()[0];
            accepted += f.get()[1];
        }
        pool.shutdown();
        legit.drain(Duration.ofSeconds(5));
        long expected = sent;
        await(() -> endpoints.received.size() == expected, "every message of the accepted peer during the flood");
        assertEquals(0, accepted);
        assertEquals(threads * perThread, rejected);
        ActivationStatistics st = a.statistics();
        assertEquals(threads * perThread, st.rejected(), "every reject counted: " + st.rejectedByReason());
        assertEquals(st.rejected(), count(a, RejectReason.NO_TOKEN) + count(a, RejectReason.RATE_LIMITED));
        assertEquals(1, st.connections());
        assertEquals(live, SoftProvider.liveObjects(), "nothing of 10,000 rejected requests stays allocated");
        assertTrue(sent > 0);
        Thread.sleep(50);   // the rate limit's bucket refills
        connect("soft_rxe0", a, token(KEY, a, System.currentTimeMillis()));
        // the passive side registers the connection a moment after the active side sees ESTABLISHED
        await(() -> a.statistics().connections() == 2, "a new authenticated peer gets in after the flood");
    }

    /** {@code n} connects without a token from one context and QP; returns {rejected, accepted}. */
    private static int[] flood(String device, InetSocketAddress to, int n) throws VerbsException {
        int[] out = new int[2];
        try (Context ctx = Verbs.provider(Verbs.SOFT).open(device)) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(4, null);
            QueuePair qp = pd.createQp(QpInitAttributes.builder(QpInitAttributes.QpType.RC).cq(cq)
                    .maxSendWr(1).maxRecvWr(1).maxRecvSge(1).build());
            pd.allocateRegistered(64, java.util.EnumSet.of(AccessFlag.LOCAL_WRITE));
            for (int i = 0; i < n; i++) {
                try {
                    ctx.connect(qp, to, Duration.ofSeconds(5)).close();
                    out[1]++;
                } catch (ConnectRejectedException e) {
                    out[0]++;
                }
            }
        }
        return out;
    }

    @Test
    void ourOwnPeersPresentTheTokenOfTheirConnectionDefinitionsKey() throws Exception {
        SrqActivation a = activate("authKey", "k1");
        io.rdma.srq.ra.outbound.SrqManagedConnectionFactory mcf = new io.rdma.srq.ra.outbound.SrqManagedConnectionFactory();
        mcf.setProvider("soft");
        mcf.setResourceAdapter(ra);
        mcf.setAuthKey("k1");
        io.rdma.srq.api.SrqConnectionFactory factory =
                (io.rdma.srq.api.SrqConnectionFactory) mcf.createConnectionFactory(new io.rdma.srq.ra.testing.TestConnectionManager());
        try (io.rdma.srq.api.SrqConnection c = factory.getConnection();
             io.rdma.srq.api.SrqPeer peer = c.connect(a.listenAddress(), Duration.ofSeconds(5))) {
            peer.send(java.nio.ByteBuffer.allocate(16));
            peer.flush(Duration.ofSeconds(5));
            await(() -> endpoints.received.size() == 1, "the pooled peer's message");
        }
        mcf.setAuthKey("");
        io.rdma.srq.api.SrqConnectionFactory noKey =
                (io.rdma.srq.api.SrqConnectionFactory) mcf.createConnectionFactory(new io.rdma.srq.ra.testing.TestConnectionManager());
        try (io.rdma.srq.api.SrqConnection c = noKey.getConnection()) {
            io.rdma.srq.api.PeerUnavailableException refused = assertThrows(io.rdma.srq.api.PeerUnavailableException.class,
                    () -> c.connect(a.listenAddress(), Duration.ofSeconds(5)));
            assertEquals("ECONNREFUSED", refused.errnoName());
            ConnectRejectedException e = assertInstanceOf(ConnectRejectedException.class, refused.getCause());
            assertEquals(RejectReason.NO_TOKEN, RejectReason.fromPrivateData(e.privateData()).orElseThrow());
        }
    }

    @Test
    void connectToPresentsTheActivationsToken() throws Exception {
        SrqActivation a = activate("authKey", "k1", "srqName", "server");
        TestEndpointFactory other = new TestEndpointFactory();
        ra.endpointActivation(other, spec("authKey", "k1", "srqName", "client", "listenAddress", "10.0.0.2",
                "connectTo", "10.0.0.1:" + a.listenAddress().getPort()));
        await(() -> a.statistics().connections() == 1, "connectTo's connection accepted");
        assertEquals(0, a.statistics().rejected());
        ra.endpointDeactivation(other, null);
    }

    @Test
    void aNonLoopbackListenerWithNeitherAllowedPeersNorAKeyWarnsAtStart() throws Exception {
        try (LogLines log = LogLines.capture("io.rdma.srq.ra")) {
            List<String> lines = log.lines();
            activate("listenAddress", "127.0.0.1");
            ra.endpointDeactivation(endpoints, null);
            assertTrue(lines.stream().noneMatch(l -> l.contains("SRQRA0201")), "loopback: no warning " + lines);
            activate("allowedPeers", "10.77.1.0/24");
            ra.endpointDeactivation(endpoints, null);
            activate("authKey", "k1");
            ra.endpointDeactivation(endpoints, null);
            assertTrue(lines.stream().noneMatch(l -> l.contains("SRQRA0201")), "restricted: no warning " + lines);
            activate();
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("WARN SRQRA0201")), "open on 10.0.0.1: " + lines);
        }
    }

    @Test
    void badAdmissionPropertiesNameTheProperty() throws Exception {
        assertEquals("allowedPeers", invalid("allowedPeers", "10.0.0.0/33"));
        assertEquals("allowedPeers", invalid("allowedPeers", "10.0.0.1/8"));
        assertEquals("authKey", invalid("authKey", "nope"));
        assertEquals("maxConnections", invalid("maxConnections", "0"));
        assertEquals("maxConnectionsPerPeer", invalid("maxConnectionsPerPeer", "2000"));
        assertEquals("connectRateLimit", invalid("connectRateLimit", "0"));
        assertEquals("tokenMaxAge", invalid("tokenMaxAge", "10"));
        InvalidPropertyException unknown = assertThrows(InvalidPropertyException.class,
                () -> spec("authKey", "nope").validate());
        assertTrue(unknown.getMessage().contains("k1, old"), unknown.getMessage());
        SrqResourceAdapter shortKey = new SrqResourceAdapter();
        shortKey.setAuthKeys("weak=" + Base64.getEncoder().encodeToString(new byte[16]));
        ResourceException e = assertThrows(ResourceException.class, () -> shortKey.start(new TestBootstrapContext()));
        assertTrue(e.getMessage().contains("authKeys") && e.getMessage().contains("weak") && e.getMessage().contains("32"),
                e.getMessage());
    }

    private String invalid(String property, String value) throws Exception {
        InvalidPropertyException e = assertThrows(InvalidPropertyException.class, () -> spec(property, value).validate());
        return e.getInvalidPropertyDescriptors()[0].getName();
    }
}
