package io.rdma.srq.ra.support.admission;

import io.rdma.srq.verbs.testing.LogLines;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A QP number the device gives out again (its QP was destroyed) while the limits still count an
 * earlier connection on it — a missed close — frees that connection's slot exactly once: nothing
 * leaks, nothing is freed twice, and a slot that was never reserved is never freed.
 */
class QpNumReuseSlotTest {
    private static final InetAddress A = InetAddress.ofLiteral("10.0.0.1");
    private static final InetAddress B = InetAddress.ofLiteral("10.0.0.2");

    @Test
    void aBindOverALiveQpNumFreesTheMissedConnectionsSlotOnce() {
        ConnectionLimits l = new ConnectionLimits(2, 1);
        assertNull(l.reserve(A));
        l.bind(A, 5);
        assertNull(l.reserve(B));
        l.bind(B, 5);
        assertEquals(1, l.total(), "A's slot is not leaked");
        assertNull(l.reserve(A), "A may connect again");
        l.bind(A, 6);
        l.closed(5);
        l.closed(5);
        assertEquals(1, l.total(), "B's close frees B's slot, once");
        assertEquals(RejectReason.MAX_CONNECTIONS_PER_PEER, l.reserve(A), "A's connection on QP 6 still counts");
        l.closed(6);
        assertEquals(0, l.total());
    }

    @Test
    void freeingASlotThatWasNeverReservedFreesNothing() {
        ConnectionLimits l = new ConnectionLimits(1, 1);
        assertNull(l.reserve(A));
        l.cancel(B);
        assertEquals(1, l.total(), "B held nothing");
        assertEquals(RejectReason.MAX_CONNECTIONS, l.reserve(B));
    }

    @Test
    void theActivationSaysWhichConnectionsCloseItMissed() {
        Admission adm = new Admission("orders", new Admission.Policy(PeerFilter.parse(""), 10, 10, 1000, List.of(),
                Duration.ofSeconds(30), 16), System::nanoTime, System::currentTimeMillis);
        InetSocketAddress a = new InetSocketAddress(A, 1);
        InetSocketAddress b = new InetSocketAddress(B, 2);
        try (LogLines log = LogLines.capture("io.rdma.srq.ra")) {
            assertNull(adm.admit(a, a, new byte[0]));
            adm.accepted(a, 7);
            assertNull(adm.admit(b, a, new byte[0]));
            adm.accepted(b, 7);
            assertEquals(1, adm.connections());
            assertEquals(1, log.containing("SRQRA0203").size(), log.lines().toString());
        }
    }
}
