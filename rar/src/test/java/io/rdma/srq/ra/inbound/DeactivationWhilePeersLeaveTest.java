package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;

import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.ra.testing.SoftActivationTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An undeploy while peers are sending and disconnecting, with delivery held (a gated MDB) until the
 * deactivation has begun: each message acknowledged to a sender is delivered once or counted
 * undelivered, none lost; the stop frees every native object (leaving QPs included: the fixture checks
 * it) and no delivery is left half-paired.
 */
class DeactivationWhilePeersLeaveTest extends SoftActivationTest {
    private static final int PEERS = 6;
    private static final int MESSAGES = 30;

    @ParameterizedTest(name = "{0}, ordering={1}, maxConcurrency={2}")
    @CsvSource({"mlx5, none, 1", "mlx5, none, 4", "mlx5, connection, 4", "rxe, connection, 4"})
    void everyAcknowledgedMessageIsDeliveredOrCountedUndelivered(String profile, String ordering,
            String maxConcurrency) throws Exception {
        SrqActivationSpec spec = spec("softProfile", profile,
                "listenAddress", "mlx5".equals(profile) ? "10.77.1.2" : "10.0.0.1", "srqMaxWr", "256",
                "initialFill", "256", "srqLimit", "0", "bufferSize", "64", "ordering", ordering,
                "maxConcurrency", maxConcurrency, "maxHeldPerConnection", "256", "drainTimeout", "5000");
        SrqActivation a = activate(spec);
        endpoints.close();
        CompletableFuture<Integer> storm = CompletableFuture.supplyAsync(() -> {
            try {
                return PeerStorm.run(a.listenAddress(), PEERS, MESSAGES);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        await(() -> a.statistics().completed() > 0, "the first messages arrived");
        CompletableFuture<Void> undeploy = CompletableFuture.runAsync(() -> ra.endpointDeactivation(endpoints, spec));
        await(() -> !ra.activations().contains(a) || a.statistics().connections() == 0 || undeploy.isDone(),
                "the deactivation under way");
        endpoints.open();
        undeploy.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        int acknowledged = storm.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        ActivationStatistics st = a.statistics();
        assertTrue(acknowledged > 0, st.toString());
        assertEquals(acknowledged, st.delivered() + st.undelivered(), "acknowledged = delivered + undelivered: " + st);
        assertEquals(st.delivered(), endpoints.distinctSequences(), "each delivered message once: " + st);
        assertEquals(st.delivered(), endpoints.received.size(), "none twice: " + st);
    }
}
