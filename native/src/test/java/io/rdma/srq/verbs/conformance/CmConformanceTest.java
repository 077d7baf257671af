package io.rdma.srq.verbs.conformance;

import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.api.WcStatus;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.CmRequest;
import io.rdma.srq.verbs.ConnectRejectedException;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * rdma_cm on one device: a QP of the device connects to a listener on the device's own address
 * (the IP address of the GID at {@code verbs.gidIndex}: rxe0's {@code ::ffff:10.77.0.1} is
 * 10.77.0.1), is accepted onto a QP of an SRQ, carries a message, and disconnects.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.rdma.srq.verbs.conformance.VerbsTarget#targets")
class CmConformanceTest extends ConformanceBase {

    CmConformanceTest(VerbsTarget target) {
        super(target);
    }

    @Test
    @DisplayName("driver note 14: an rdma_cm connect to a port nobody listens on fails within its timeout (REJECTED → ECONNREFUSED, or ETIMEDOUT), never hangs")
    void connectWithoutListenerIsBounded() throws Exception {
        assumeRcOnSrq();
        Link l = new Link(16, 64);
        QueuePair qp = l.pd.createQp(QpInitAttributes.rcOnSrq(l.cqA, l.srq, 16));
        InetSocketAddress nobody = new InetSocketAddress(deviceAddress(qp), 1);
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            VerbsException e = assertThrows(VerbsException.class, () -> ctx.connect(qp, nobody, Duration.ofSeconds(2)));
            assertTrue(EnumSet.of(Errno.ECONNREFUSED, Errno.ETIMEDOUT, Errno.EHOSTUNREACH)
                    .contains(e.errnoConstant().orElseThrow()), e.getMessage());
        });
    }

    @Test
    @DisplayName("rdma_cm: a listener on the wildcard 0.0.0.0 hears a connect to the device's own address and accepts it onto an SRQ QP")
    void wildcardListenerAcceptsOnTheDevice() throws Exception {
        assumeRcOnSrq();
        Link l = new Link(16, 64);
        QueuePair server = l.pd.createQp(QpInitAttributes.rcOnSrq(l.cqB, l.srq, 16));
        QueuePair client = l.pd.createQp(QpInitAttributes.rcOnSrq(l.cqA, l.srq, 16));
        CmListener listener = ctx.listen(new InetSocketAddress("0.0.0.0", 0), 4);
        InetSocketAddress at = new InetSocketAddress(deviceAddress(server), listener.localAddress().getPort());
        CompletableFuture<CmConnection> connecting = CompletableFuture.supplyAsync(() -> {
            try {
                return ctx.connect(client, at, PATIENCE);
            } catch (VerbsException e) {
                throw new RuntimeException(e);
            }
        });
        CmEvent request = listener.nextEvent(PATIENCE).orElseThrow(() -> new AssertionError("no CONNECT_REQUEST"));
        assertEquals(CmEventType.CONNECT_REQUEST, request.type());
        CmConnection accepted = request.request().accept(server);
        CmConnection connected = connecting.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        CmEvent established = listener.nextEvent(PATIENCE).orElseThrow(() -> new AssertionError("no ESTABLISHED"));
        assertEquals(CmEventType.ESTABLISHED, established.type());
        assertSame(accepted, established.connection());
        assertSame(server, accepted.qp());
        assertTrue(connected.isEstablished());
        connected.disconnect();
        nextOfType(listener, CmEventType.DISCONNECTED);
        listener.close();
    }

    @Test
    @DisplayName("rdma_cm: CONNECT_REQUEST, accept onto an SRQ QP, ESTABLISHED, a SEND lands in the SRQ, rdma_disconnect → DISCONNECTED on both sides")
    void connectAcceptSendDisconnect() throws Exception {
        assumeRcOnSrq();
        Link l = new Link(16, 64);
        QueuePair server = l.pd.createQp(QpInitAttributes.rcOnSrq(l.cqB, l.srq, 16));
        QueuePair client = l.pd.createQp(QpInitAttributes.rcOnSrq(l.cqA, l.srq, 16));
        CmListener listener = ctx.listen(new InetSocketAddress(deviceAddress(server), 0), 4);
        InetSocketAddress at = new InetSocketAddress(deviceAddress(server), listener.localAddress().getPort());
        CompletableFuture<CmConnection> connecting = CompletableFuture.supplyAsync(() -> {
            try {
                return ctx.connect(client, at, PATIENCE);
            } catch (VerbsException e) {
                throw new RuntimeException(e);
            }
        });
        CmEvent request = listener.nextEvent(PATIENCE).orElseThrow(() -> new AssertionError("no CONNECT_REQUEST"));
        assertEquals(CmEventType.CONNECT_REQUEST, request.type());
        CmConnection accepted = request.request().accept(server);
        CmConnection connected = connecting.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        CmEvent established = listener.nextEvent(PATIENCE).orElseThrow(() -> new AssertionError("no ESTABLISHED"));
        assertEquals(CmEventType.ESTABLISHED, established.type());
        assertSame(accepted, established.connection());
        assertTrue(connected.isEstablished());

        l.postReceives(1);
        byte[] msg = payload(48, 7);
        l.mr.segment().asSlice(0, 48).copyFrom(java.lang.foreign.MemorySegment.ofArray(msg));
        client.postSend(3, l.mr, 0, 48, null);
        Wc recv = poll(l.cqB, 1).getFirst();
        assertEquals(WcStatus.SUCCESS, recv.status());
        assertEquals(server.qpNum(), recv.qpNum());
        assertArrayEquals(msg, l.received(recv.wrId(), 48));
        assertEquals(WcStatus.SUCCESS, poll(l.cqA, 1).getFirst().status());

        connected.disconnect();
        // the passive side takes DISCONNECTED (and replies, rdma_disconnect → DREP); then the active side gets its own
        CmEvent theirs = nextOfType(listener, CmEventType.DISCONNECTED);
        assertSame(accepted, theirs.connection());
        CmEvent mine = connected.nextEvent(PATIENCE).orElseThrow(() -> new AssertionError("no DISCONNECTED (active)"));
        assertEquals(CmEventType.DISCONNECTED, mine.type());
        connected.close();
        accepted.close();
        listener.close();
    }

    @Test
    @DisplayName("driver note 19: a connect's private data reaches the listener (IB CM: zero-padded to 56 bytes); a reject's private data reaches the connector, whose connect fails ECONNREFUSED; more than 56 / 148 bytes is EINVAL")
    void privateDataOnConnectAndReject() throws Exception {
        assumeRcOnSrq();
        Link l = new Link(16, 64);
        QueuePair client = l.pd.createQp(QpInitAttributes.rcOnSrq(l.cqA, l.srq, 16));
        CmListener listener = ctx.listen(new InetSocketAddress(deviceAddress(client), 0), 4);
        InetSocketAddress at = new InetSocketAddress(deviceAddress(client), listener.localAddress().getPort());
        byte[] sent = payload(40, 3);
        CompletableFuture<VerbsException> connecting = CompletableFuture.supplyAsync(() -> {
            try {
                ctx.connect(client, at, PATIENCE, sent).close();
                return null;
            } catch (VerbsException e) {
                return e;
            }
        });
        CmEvent request = nextOfType(listener, CmEventType.CONNECT_REQUEST);
        assertEquals(at, request.request().localAddress(), "the address the request arrived at");
        byte[] received = request.request().privateData();
        assertTrue(received.length >= sent.length && received.length <= CmRequest.MAX_CONNECT_PRIVATE_DATA,
                "private data length " + received.length);
        assertArrayEquals(sent, java.util.Arrays.copyOf(received, sent.length));
        for (int i = sent.length; i < received.length; i++) {
            assertEquals(0, received[i], "padding byte " + i);
        }
        assertThrows(VerbsException.class, () -> request.request().reject(new byte[CmRequest.MAX_REJECT_PRIVATE_DATA + 1]));
        byte[] reason = {'R', 'J', 0, 7};
        request.request().reject(reason);
        VerbsException failure = connecting.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        ConnectRejectedException rejected = assertInstanceOf(ConnectRejectedException.class, failure);
        assertTrue(rejected.is(Errno.ECONNREFUSED), rejected.getMessage());
        assertEquals(ConnectRejectedException.CONSUMER_DEFINED, rejected.rejectStatus());
        assertArrayEquals(reason, java.util.Arrays.copyOf(rejected.privateData(), reason.length));

        QueuePair other = l.pd.createQp(QpInitAttributes.rcOnSrq(l.cqA, l.srq, 16));
        VerbsException tooLong = assertThrows(VerbsException.class,
                () -> ctx.connect(other, at, PATIENCE, new byte[CmRequest.MAX_CONNECT_PRIVATE_DATA + 1]));
        assertTrue(tooLong.is(Errno.EINVAL), tooLong.getMessage());
        listener.close();
    }
}
