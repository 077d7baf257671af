package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;

import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.ra.testing.SoftActivationTest;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A peer that connects, sends and disconnects in a tight loop — while its earlier connections are
 * still leaving — under maxConnectionsPerPeer 2: each leaving connection's admission slot comes back
 * when its QP is destroyed, so the peer is never refused for good; every connection gets its own
 * connection id although QP numbers are reused; nothing stays leaving; every message is delivered.
 */
class TightReconnectLoopTest extends SoftActivationTest {
    private static final int ROUNDS = 40;
    private static final int MESSAGES = 4;

    @ParameterizedTest(name = "ordering={0}")
    @ValueSource(strings = {"none", "connection"})
    void aPeerReconnectingInALoopLeavesNothingBehind(String ordering) throws Exception {
        SrqActivation a = activate(spec("softProfile", "mlx5", "listenAddress", "10.77.1.2", "srqMaxWr", "256",
                "bufferSize", "64", "ordering", ordering, "maxConcurrency", "2", "maxConnectionsPerPeer", "2",
                "connectRateLimit", "100000"));
        int acknowledged = 0;
        int connected = 0;
        for (int round = 0; connected < ROUNDS; round++) {
            int got = PeerStorm.run(a.listenAddress(), 1, MESSAGES, (long) round * MESSAGES); // 0: refused, the slots still held
            acknowledged += got;
            connected += got > 0 ? 1 : 0;
            if (round > 50 * ROUNDS) {
                throw new AssertionError("refused for good: " + a.statistics());
            }
        }
        int total = acknowledged;
        await(() -> a.statistics().connections() == 0 && a.statistics().leavingConnections() == 0, "all left");
        await(() -> a.statistics().delivered() == total, "every message delivered");
        await(() -> a.statistics().outstanding() == a.statistics().fill(), "every receive buffer back in the SRQ");
        ActivationStatistics st = a.statistics();
        assertEquals(ROUNDS * MESSAGES, total, st.toString());
        assertEquals(total, endpoints.distinctSequences(), "each message once: " + st);
        assertEquals(total, endpoints.received.size(), "none twice: " + st);
        Set<Long> ids = endpoints.received.stream().map(TestEndpointFactory.Received::connectionId)
                .collect(Collectors.toSet());
        assertEquals(ROUNDS, ids.size(), "one connection id per connection: " + st);
        assertEquals(ROUNDS, st.closedConnections(), st.toString());
    }
}
