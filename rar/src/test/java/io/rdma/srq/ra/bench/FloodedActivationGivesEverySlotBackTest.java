package io.rdma.srq.ra.bench;

import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.support.admission.AuthKey;
import io.rdma.srq.ra.support.admission.RejectReason;
import io.rdma.srq.ra.testing.SoftActivationTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ConnectFloodBenchmark}'s code path with 50 requests of each kind (so it cannot rot): every
 * flood request is rejected with the reason its kind earns, or accepted half-open and reaped, and
 * each is counted by the activation; the legitimate peer's messages are all delivered; every slot
 * comes back (connections, leaving connections and, through the fixture, every native object).
 * maxConnections 16 makes the half-open peers fill the slots. No timing is asserted.
 */
class FloodedActivationGivesEverySlotBackTest extends SoftActivationTest {
    private static final int PER_KIND = 50;
    private static final int MAX_CONNECTIONS = 16;
    private static final byte[] KEY = new byte[32];

    static {
        for (int i = 0; i < KEY.length; i++) {
            KEY[i] = (byte) (31 * i + 7);
        }
    }

    {
        ra.setAuthKeys("k1=" + Base64.getEncoder().encodeToString(KEY));
    }

    @Test
    void everyFloodRequestIsRejectedOrReapedAndCountedAndEverySlotComesBack() throws Exception {
        SrqActivation a = activate("authKey", "k1", "connectRateLimit", "1000000",
                "maxConnections", String.valueOf(MAX_CONNECTIONS));
        ConnectFlood.Plan plan = new ConnectFlood.Plan(PER_KIND, 1, 3, Duration.ofMillis(2), 8,
                PATIENCE.plusSeconds(10));
        ConnectFlood.Result r = ConnectFlood.run(a, new AuthKey("k1", KEY), plan);

        ConnectOutcomes garbage = r.flooded().get(Flooder.Kind.GARBAGE);
        assertEquals(PER_KIND / 2, garbage.of(RejectReason.NO_TOKEN.name()), garbage.toString());
        assertEquals(PER_KIND / 2, garbage.of(RejectReason.BAD_TOKEN.name()), garbage.toString());
        ConnectOutcomes replayed = r.flooded().get(Flooder.Kind.REPLAYED);
        assertEquals(PER_KIND, replayed.of(RejectReason.REPLAYED.name()), replayed.toString());
        ConnectOutcomes halfOpen = r.flooded().get(Flooder.Kind.HALF_OPEN);
        long halfOpenAccepted = halfOpen.of(ConnectOutcomes.ACCEPTED);
        assertEquals(PER_KIND, halfOpenAccepted + halfOpen.of(RejectReason.MAX_CONNECTIONS.name()), halfOpen.toString());
        assertTrue(halfOpenAccepted >= 1 && halfOpenAccepted <= MAX_CONNECTIONS, halfOpen.toString());

        ActivationStatistics end = r.atEnd();
        assertTrue(r.halfOpenReapedAt() >= 0, "every half-open connection reaped: " + end);
        assertTrue(r.slotsBackAt() >= 0, "every slot back: " + end);
        assertEquals(0, end.connections());
        assertEquals(0, end.leavingConnections());
        assertEquals(halfOpenAccepted, end.halfOpenReaped(), "every half-open connection reaped");
        long legitAccepted = r.legitimate().of(ConnectOutcomes.ACCEPTED);
        assertEquals(plan.warmupConnects(), r.baseline().outcomes().of(ConnectOutcomes.ACCEPTED),
                r.baseline().outcomes().toString());
        assertEquals(legitAccepted + halfOpenAccepted, end.closedConnections(), "every accepted connection's QP destroyed");

        ConnectOutcomes all = new ConnectOutcomes();
        r.flooded().values().forEach(all::add);
        all.add(r.legitimate());
        for (RejectReason reason : RejectReason.values()) {
            assertEquals(all.of(reason.name()), end.rejectedByReason().get(reason.name()), "the activation counted every "
                    + reason + " reject: " + end.rejectedByReason() + " vs " + all);
        }
        assertEquals(0, all.of(ConnectOutcomes.NO_REASON) + all.of(ConnectOutcomes.FAILED),
                "every request answered by the activation: " + all);

        assertEquals(0, r.sendErrors());
        assertEquals(legitAccepted * plan.messagesPerConnection(), r.acknowledged());
        assertEquals(r.acknowledged(), r.delivered(), "every message of the legitimate peer delivered");
    }
}
