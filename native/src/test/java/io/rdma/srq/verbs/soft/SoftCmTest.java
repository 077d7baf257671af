package io.rdma.srq.verbs.soft;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.api.WcStatus;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.WorkCompletionArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The soft rdma_cm: listen, connect, accept/reject, timeouts, disconnect. */
class SoftCmTest {
    private static final Duration WAIT = Duration.ofSeconds(5);
    private final SoftProvider provider = new SoftProvider();
    private int liveBefore;
    private Context server;
    private Context client;

    @BeforeEach
    void open() {
        liveBefore = SoftProvider.liveObjects();
        server = provider.open(SoftProfile.RXE);
        client = provider.open(SoftProfile.MLX5);
    }

    @AfterEach
    void close() throws VerbsException {
        client.close();
        server.close();
        assertEquals(liveBefore, SoftProvider.liveObjects(), "soft objects leaked");
    }

    private static VerbsException errno(Errno expected, org.junit.jupiter.api.function.Executable call) {
        VerbsException e = assertThrows(VerbsException.class, call);
        assertEquals(expected.name(), e.errnoName(), e.getMessage());
        return e;
    }

    private QueuePair rcQp(Context ctx, ProtectionDomain pd, SharedReceiveQueue srq) throws VerbsException {
        CompletionQueue cq = ctx.createCq(64, null);
        return pd.createQp(srq == null ? QpInitAttributes.builder(QpInitAttributes.QpType.RC).cq(cq)
                .maxSendWr(16).maxRecvWr(16).maxRecvSge(1).build()
                : QpInitAttributes.rcOnSrq(cq, srq, 16));
    }

    @Test
    void portZeroTakesAFreePortAndATakenPortIsEaddrinuse() throws VerbsException {
        CmListener any = server.listen(new InetSocketAddress("0.0.0.0", 0), 8);
        int port = any.localAddress().getPort();
        assertTrue(port >= 32768 && port <= 60999, "port " + port);
        // the kernel's cma_check_port: a wildcard on either side is EADDRNOTAVAIL, the same address EADDRINUSE
        errno(Errno.EADDRNOTAVAIL, () -> server.listen(new InetSocketAddress("10.77.1.1", port), 8));
        errno(Errno.EADDRNOTAVAIL, () -> server.listen(new InetSocketAddress("0.0.0.0", port), 8));
        errno(Errno.EINVAL, () -> server.listen(new InetSocketAddress("0.0.0.0", 0), 0));
        any.close();
        CmListener one = server.listen(new InetSocketAddress("10.77.1.1", port), 8);
        errno(Errno.EADDRINUSE, () -> server.listen(new InetSocketAddress("10.77.1.1", port), 8));
        one.close();
    }

    @Test
    void connectWithoutListenerIsRefused() throws VerbsException {
        QueuePair qp = rcQp(client, client.allocPd(), null);
        errno(Errno.ECONNREFUSED, () -> client.connect(qp, new InetSocketAddress("10.77.1.1", 4791), WAIT));
        assertTrue(((SoftQueuePair) qp).isRcInReset(), "a refused connect leaves the QP in RESET");
    }

    @Test
    void connectAcceptSendAndDisconnect() throws Exception {
        CmListener listener = server.listen(new InetSocketAddress("0.0.0.0", 0), 8);
        ProtectionDomain spd = server.allocPd();
        SharedReceiveQueue srq = spd.createSrq(new SrqAttributes(64, 1, 0));
        CompletionQueue scq = server.createCq(64, null);
        QueuePair sqp = spd.createQp(QpInitAttributes.rcOnSrq(scq, srq, 16));
        MemoryRegion smr = spd.allocateRegistered(4096, EnumSet.of(AccessFlag.LOCAL_WRITE));
        ProtectionDomain cpd = client.allocPd();
        QueuePair cqp = rcQp(client, cpd, null);
        MemoryRegion cmr = cpd.allocateRegistered(4096, EnumSet.of(AccessFlag.LOCAL_WRITE));

        InetSocketAddress target = new InetSocketAddress("10.77.1.1", listener.localAddress().getPort());
        CompletableFuture<CmConnection> connecting = CompletableFuture.supplyAsync(() -> {
            try {
                return client.connect(cqp, target, WAIT);
            } catch (VerbsException e) {
                throw new RuntimeException(e);
            }
        });
        CmEvent request = listener.nextEvent(WAIT).orElseThrow();
        assertEquals(CmEventType.CONNECT_REQUEST, request.type());
        // as on IB and RoCE: a connect without private data arrives as 56 zero bytes (driver note 19)
        assertArrayEquals(new byte[56], request.request().privateData());
        CmConnection accepted = request.request().accept(sqp);
        assertThrows(IllegalStateException.class, () -> request.request().reject(), "answered once");
        CmConnection connected = connecting.get(5, TimeUnit.SECONDS);
        CmEvent established = listener.nextEvent(WAIT).orElseThrow();
        assertEquals(CmEventType.ESTABLISHED, established.type());
        assertSame(accepted, established.connection());
        assertTrue(connected.isEstablished() && accepted.isEstablished());
        assertEquals(target, connected.remoteAddress());
        assertSame(cqp, connected.qp());
        assertSame(sqp, accepted.qp());

        try (ReceiveWorkRequests wrs = new ReceiveWorkRequests(1); WorkCompletionArray wcs = new WorkCompletionArray(4)) {
            wrs.set(0, 11, smr.address(), 64, smr.lkey());
            srq.postReceive(wrs, 1);
            cqp.postSend(5, cmr, 0, 32, 99);
            assertEquals(1, scq.poll(wcs));
            assertEquals(WcStatus.SUCCESS, wcs.status(0));
            assertEquals(99, wcs.immData(0));
            assertEquals(sqp.qpNum(), wcs.qpNum(0));
        }

        connected.disconnect();
        connected.disconnect();
        assertEquals(CmEventType.DISCONNECTED, connected.nextEvent(WAIT).orElseThrow().type());
        CmEvent gone = listener.nextEvent(WAIT).orElseThrow();
        assertEquals(CmEventType.DISCONNECTED, gone.type());
        assertSame(accepted, gone.connection());
        assertFalse(accepted.isEstablished());
        assertTrue(accepted.nextEvent(Duration.ZERO).isEmpty(), "a passive connection's events go to the listener");
        connected.close();
        accepted.close();
        listener.close();
    }

    @Test
    void rejectIsRefusedAndNoAnswerTimesOut() throws Exception {
        CmListener listener = server.listen(new InetSocketAddress("0.0.0.0", 0), 8);
        InetSocketAddress target = new InetSocketAddress("10.77.1.1", listener.localAddress().getPort());
        ProtectionDomain cpd = client.allocPd();
        QueuePair rejected = rcQp(client, cpd, null);
        CompletableFuture<Void> refused = CompletableFuture.runAsync(() -> {
            VerbsException e = assertThrows(VerbsException.class, () -> client.connect(rejected, target, WAIT));
            assertEquals(Errno.ECONNREFUSED.value(), e.errno());
        });
        listener.nextEvent(WAIT).orElseThrow().request().reject();
        refused.get(5, TimeUnit.SECONDS);

        QueuePair late = rcQp(client, cpd, null);
        errno(Errno.ETIMEDOUT, () -> client.connect(late, target, Duration.ofMillis(50)));
        CmEvent stale = listener.nextEvent(WAIT).orElseThrow();
        assertEquals(CmEventType.CONNECT_REQUEST, stale.type());
        QueuePair sqp = rcQp(server, server.allocPd(), null);
        errno(Errno.ECONNABORTED, () -> stale.request().accept(sqp));
        assertTrue(((SoftQueuePair) late).isRcInReset());
    }

    @Test
    void closingTheListenerRefusesWaitingConnectsAndDisconnectsAccepted() throws Exception {
        CmListener listener = server.listen(new InetSocketAddress("0.0.0.0", 0), 8);
        InetSocketAddress target = new InetSocketAddress("10.77.1.1", listener.localAddress().getPort());
        QueuePair qp = rcQp(client, client.allocPd(), null);
        CompletableFuture<Void> waiting = CompletableFuture.runAsync(() ->
                assertThrows(VerbsException.class, () -> client.connect(qp, target, WAIT)));
        assertNotNull(listener.nextEvent(WAIT).orElseThrow().request());
        listener.close();
        try {
            waiting.get(5, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            assertInstanceOf(AssertionError.class, e.getCause());
            throw e;
        }
        assertThrows(IllegalStateException.class, () -> listener.nextEvent(Duration.ZERO));
    }
}
