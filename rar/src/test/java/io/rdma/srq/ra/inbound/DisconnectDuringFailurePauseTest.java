package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;

import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.ra.testing.SoftActivationTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Peers that disconnect while delivery is paused after consecutive failures (pauseTimeout 0: until
 * resumed) leave all the same: the paused poller takes their completions off the CQ and holds them, so
 * their QPs are destroyed during the pause (on soft_mlx5_0 an early destroy would drop them), and once
 * delivery is resumed every held message is delivered once and every receive buffer comes back.
 */
class DisconnectDuringFailurePauseTest extends SoftActivationTest {
    private static final int PEERS = 6;
    private static final int MESSAGES = 20;

    @ParameterizedTest(name = "ordering={0}, maxConcurrency={1}")
    @CsvSource({"none, 1", "none, 4", "connection, 4"})
    void peersLeavingWhilePausedAreDestroyedAndTheirMessagesDeliveredOnResume(String ordering, String maxConcurrency)
            throws Exception {
        AtomicBoolean failing = new AtomicBoolean(true);
        endpoints.behaviour(c -> {
            if (failing.get()) {
                throw new IllegalStateException("a broken back end");
            }
        });
        SrqActivation a = activate(spec("softProfile", "mlx5", "listenAddress", "10.77.1.2", "srqMaxWr", "256",
                "initialFill", "256", "srqLimit", "0", "bufferSize", "64", "ordering", ordering,
                "maxConcurrency", maxConcurrency, "maxHeldPerConnection", "256", "maxDeliveryAttempts", "1",
                "maxSequentialDeliveryFailures", "1", "pauseTimeout", "0"));
        // peer 0's message 0 (seq 0) is the failure that pauses; the others arrive during the pause
        int first = PeerStorm.run(a.listenAddress(), 1, 1);
        await(() -> a.statistics().paused() && a.statistics().delivered() == 1, "paused after a dead letter");
        failing.set(false);
        int acknowledged = first + PeerStorm.run(a.listenAddress(), PEERS, MESSAGES, 1);
        await(() -> a.statistics().connections() == 0, "every disconnect taken");
        await(() -> a.statistics().leavingConnections() == 0, "every leaving QP destroyed during the pause");
        ActivationStatistics paused = a.statistics();
        assertTrue(paused.paused(), paused.toString());
        assertEquals(1, paused.delivered(), "nothing delivered during the pause: " + paused);
        assertEquals(PEERS + 1, paused.closedConnections(), paused.toString());
        a.resumeDelivery();
        await(() -> a.statistics().delivered() == acknowledged, "every acknowledged message delivered on resume");
        await(() -> a.statistics().outstanding() == a.statistics().fill(), "every receive buffer back in the SRQ");
        ActivationStatistics st = a.statistics();
        assertEquals(1, st.deadLettered(), st.toString());
        assertEquals(0, st.undelivered(), st.toString());
        assertEquals(acknowledged, endpoints.distinctSequences(), "each message once: " + st);
    }
}
