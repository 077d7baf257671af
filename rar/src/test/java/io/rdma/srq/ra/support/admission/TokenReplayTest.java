package io.rdma.srq.ra.support.admission;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A token is accepted once in its scope (its key and its target), whatever happens between: a new
 * run of the activation (device recovery, stop/start of delivery), a redeploy, another activation
 * on the same address and port; a request rejected before its token is looked at still uses the
 * token up; a step of the wall clock either way does not reopen a nonce. Each test uses a target of
 * its own, as the scopes are JVM-wide.
 */
class TokenReplayTest {
    private static final AuthKey KEY = new AuthKey("k1", new byte[32]);
    private static final InetSocketAddress PEER = new InetSocketAddress(InetAddress.ofLiteral("10.77.1.2"), 40000);
    private static final long MAX_AGE = 30_000;
    private static final long SECOND = 1_000_000_000L;

    private final InetSocketAddress target = new InetSocketAddress(InetAddress.ofLiteral("10.77.1.1"),
            ThreadLocalRandom.current().nextInt(1024, 65536));
    private final AtomicLong mono = new AtomicLong(ThreadLocalRandom.current().nextLong());
    private final AtomicLong wall = new AtomicLong(1_800_000_000_000L);

    private Admission admission(String name, String allowedPeers, int maxConnections, int rate, int cache) {
        return new Admission(name, new Admission.Policy(PeerFilter.parse(allowedPeers), maxConnections, maxConnections,
                rate, List.of(KEY), Duration.ofMillis(MAX_AGE), cache), mono::get, wall::get);
    }

    private Admission admission(String name) {
        return admission(name, "", 100, 1000, 1000);
    }

    private byte[] token() {
        return PeerToken.create(KEY, target, wall.get());
    }

    @Test
    void aTokenIsAcceptedOnceAcrossRunsRedeploysAndActivationsOnTheSameTarget() {
        byte[] token = token();
        assertNull(admission("orders").admit(PEER, target, token));
        Admission nextRun = admission("orders");
        assertEquals(RejectReason.REPLAYED, nextRun.admit(PEER, target, token), "the activation's next run");
        assertEquals(RejectReason.REPLAYED, admission("invoices").admit(PEER, target, token),
                "another activation listening on the same address and port later");
        assertEquals(1, nextRun.counters().count(RejectReason.REPLAYED));
        assertNull(nextRun.admit(PEER, target, token()), "a fresh token gets in");
    }

    @Test
    void aTokenOfARequestRejectedForItsAddressOrTheRateIsUsedUp() {
        Admission a = admission("orders", "10.77.1.0/24", 1, 1, 1000);
        byte[] outside = token();
        assertEquals(RejectReason.NOT_ALLOWED, a.admit(new InetSocketAddress(InetAddress.ofLiteral("10.99.0.1"), 1),
                target, outside));
        assertEquals(RejectReason.REPLAYED, a.admit(PEER, target, outside),
                "a sniffed token, sent again from an allowed address");

        mono.addAndGet(SECOND);
        assertNull(a.admit(PEER, target, token()), "takes the one connect of this second and the one slot");
        byte[] limited = token();
        assertEquals(RejectReason.RATE_LIMITED, a.admit(PEER, target, limited));
        mono.addAndGet(SECOND);
        assertEquals(RejectReason.REPLAYED, a.admit(PEER, target, limited), "once the rate allows again");
        assertEquals(RejectReason.REPLAYED, admission("orders").admit(PEER, target, limited), "on the next run");

        mono.addAndGet(SECOND);
        byte[] full = token();
        assertEquals(RejectReason.MAX_CONNECTIONS, a.admit(PEER, target, full));
        mono.addAndGet(SECOND);
        assertEquals(RejectReason.REPLAYED, a.admit(PEER, target, full));
    }

    @Test
    void aStepOfTheWallClockDoesNotReopenASeenNonce() {
        Admission a = admission("orders");
        byte[] seen = token();
        assertNull(a.admit(PEER, target, seen));
        wall.addAndGet(3_600_000);            // one hour forward (a wrong NTP source), a second passes
        mono.addAndGet(SECOND);
        byte[] ahead = token();               // a peer on the same wrong clock
        assertNull(a.admit(PEER, target, ahead));
        wall.addAndGet(-3_600_000);           // and corrected
        assertEquals(RejectReason.REPLAYED, a.admit(PEER, target, seen), "held for its time, monotonic");

        mono.addAndGet(61 * SECOND);          // its time is up on both clocks: forgotten ...
        wall.addAndGet(61_000);
        assertEquals(RejectReason.EXPIRED, a.admit(PEER, target, seen));
        assertNull(a.admit(PEER, target, token()));
        wall.addAndGet(-31_000);              // ... and the wall clock stepped back into its tokenMaxAge
        assertEquals(RejectReason.EXPIRED, a.admit(PEER, target, seen),
                "stamped at or before a forgotten nonce's timestamp: refused");
        assertNull(a.admit(PEER, target, token()), "a fresh token from the peer's clock gets in");
        wall.addAndGet(3_600_000);
        assertEquals(RejectReason.REPLAYED, a.admit(PEER, target, ahead),
                "held while the wall clock still accepts it, though its monotonic time is up");
    }

    @Test
    void aFullReplayCacheRefusesCountedAndForgetsNothing() {
        Admission a = admission("orders", "", 100, 1000, 2);
        byte[] first = token();
        assertNull(a.admit(PEER, target, first));
        assertNull(a.admit(PEER, target, token()));
        assertEquals(RejectReason.REPLAY_CACHE_FULL, a.admit(PEER, target, token()));
        assertEquals(1, a.counters().count(RejectReason.REPLAY_CACHE_FULL));
        assertEquals(RejectReason.REPLAYED, a.admit(PEER, target, first));
        mono.addAndGet(61 * SECOND);
        wall.addAndGet(61_000);
        assertNull(a.admit(PEER, target, token()), "room again once the held nonces' time is up");
    }
}
