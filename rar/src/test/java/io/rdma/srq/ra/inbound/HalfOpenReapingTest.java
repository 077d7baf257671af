package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.inbound.connections.HalfOpen;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;

import io.rdma.srq.api.CmEventType;
import io.rdma.srq.ra.support.admission.RejectReason;
import io.rdma.srq.ra.testing.SoftActivationTest;
import io.rdma.srq.ra.testing.SoftSender;
import io.rdma.srq.verbs.ConnectRejectedException;
import io.rdma.srq.verbs.soft.SoftHalfOpenPeer;
import io.rdma.srq.verbs.soft.SoftProvider;
import io.rdma.srq.verbs.testing.LogLines;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An accepted connection that never becomes ESTABLISHED — its peer never sends the RTU, the CM gives
 * up on it, or its QP fails — is closed, its maxConnections slot freed, counted in halfOpenReaped and
 * logged (SRQRA0210); an established connection is not.
 */
class HalfOpenReapingTest extends SoftActivationTest {
    private final List<SoftHalfOpenPeer> peers = new ArrayList<>();

    @AfterEach
    void closePeers() throws Exception {
        for (SoftHalfOpenPeer p : peers) {
            p.close();
        }
    }

    private SoftHalfOpenPeer halfOpen(SrqActivation a) throws Exception {
        SoftHalfOpenPeer p = SoftProvider.connectWithoutRtu("soft_mlx5_0", a.listenAddress(), Duration.ofSeconds(5),
                new byte[0]);
        peers.add(p);
        return p;
    }

    @Test
    void aPeerThatNeverSendsTheRtuIsReapedWithinTheBoundAndItsSlotComesBack() throws Exception {
        SrqActivation a = activate("maxConnections", "2");
        SoftSender established = sender(a, 64);
        halfOpen(a);
        assertEquals(2, a.statistics().connections(), "accepted: it holds a slot");
        ConnectRejectedException full = assertThrows(ConnectRejectedException.class,
                () -> new SoftSender(a.listenAddress(), 64).close());
        assertEquals(RejectReason.MAX_CONNECTIONS, RejectReason.fromPrivateData(full.privateData()).orElseThrow());
        long start = System.nanoTime();
        await(() -> a.statistics().halfOpenReaped() == 1, "the half-open connection reaped");
        assertTrue(System.nanoTime() - start < HalfOpen.BOUND.toNanos() + PATIENCE.toNanos(), "within the bound");
        assertEquals(1, a.statistics().connections(), "the established connection stays");
        // the slot comes back with the QP's destroy, once its completions (none) were polled
        await(() -> a.statistics().closedConnections() == 1, "the reaped connection's QP destroyed");
        sender(a, 64); // the slot is free again
        established.send(1, 64, null);
        await(() -> endpoints.received.size() == 1, "the established connection still delivers");
        assertEquals(1, a.statistics().halfOpenReaped(), "established connections are not reaped");
    }

    @ParameterizedTest
    @EnumSource(value = CmEventType.class, names = {"UNREACHABLE", "REJECTED", "CONNECT_ERROR"})
    void theCmGivingUpOnAnAcceptedConnectionReapsIt(CmEventType type) throws Exception {
        SrqActivation a = activate("maxConnections", "1");
        try (LogLines log = LogLines.capture("io.rdma.srq.ra")) {
            SoftHalfOpenPeer p = halfOpen(a);
            p.listenerGivesUp(type);
            await(() -> a.statistics().halfOpenReaped() == 1, "the connection reaped at " + type);
            assertEquals(0, a.statistics().connections());
            await(() -> !log.containing("SRQRA0210").isEmpty(), "SRQRA0210 (counted before it is logged)");
            List<String> lines = log.containing("SRQRA0210");
            assertEquals(1, lines.size(), log.lines().toString());
            assertTrue(lines.getFirst().contains("RDMA_CM_EVENT_" + type), lines.getFirst());
        }
        await(() -> a.statistics().closedConnections() == 1, "the reaped connection's QP destroyed");
        sender(a, 64); // its slot is free again
    }

    @Test
    void qpFatalOfAnAcceptedConnectionNotYetEstablishedReapsIt() throws Exception {
        SrqActivation a = activate("maxConnections", "1");
        try (LogLines log = LogLines.capture("io.rdma.srq.ra")) {
            SoftHalfOpenPeer p = halfOpen(a);
            assertTrue(SoftProvider.raiseQpFatal(p.acceptingQpNum()));
            await(() -> a.statistics().halfOpenReaped() == 1, "the connection reaped at QP_FATAL");
            assertEquals(0, a.statistics().connections());
            await(() -> !log.containing("SRQRA0210").isEmpty(), "SRQRA0210 (counted before it is logged)");
            assertTrue(log.containing("SRQRA0210").getFirst().contains("IBV_EVENT_QP_FATAL"), log.lines().toString());
        }
        await(() -> a.statistics().closedConnections() == 1, "the reaped connection's QP destroyed");
        sender(a, 64);
    }
}
