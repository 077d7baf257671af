package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;

import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.ra.testing.SoftActivationTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Many peers connect, send and disconnect at once while delivery is held (a gated MDB: backpressure),
 * under each ordering and both inline (maxConcurrency 1) and pooled delivery: every message
 * acknowledged to a sender is delivered exactly once, every receive buffer comes back to the SRQ, no
 * connection stays leaving and no native object is left (the fixture checks that after the stop).
 * The SRQ holds every message sent ({@value #PEERS} × {@value #MESSAGES} < 256), so no sender waits on
 * the gate. On soft_mlx5_0 a QP destroyed too early would take its unpolled completions with it (driver note 18).
 */
class DisconnectStormTest extends SoftActivationTest {
    private static final int PEERS = 8;
    private static final int MESSAGES = 24;

    @ParameterizedTest(name = "{0}, ordering={1}, maxConcurrency={2}")
    @CsvSource({"mlx5, none, 1", "mlx5, none, 4", "mlx5, connection, 1", "mlx5, connection, 4",
            "rxe, none, 1", "rxe, connection, 4"})
    void peersLeavingTogetherUnderBackpressureLoseNothing(String profile, String ordering, String maxConcurrency)
            throws Exception {
        SrqActivation a = activate(spec("softProfile", profile,
                "listenAddress", "mlx5".equals(profile) ? "10.77.1.2" : "10.0.0.1",
                "srqMaxWr", "256", "initialFill", "256", "srqLimit", "0", "bufferSize", "64", "ordering", ordering,
                "maxConcurrency", maxConcurrency, "maxHeldPerConnection", "256"));
        endpoints.close(); // the MDB is slow: what arrives waits in the CQ, in lanes, in swept
        int acknowledged = PeerStorm.run(a.listenAddress(), PEERS, MESSAGES);
        await(() -> a.statistics().connections() == 0, "every disconnect taken");
        endpoints.open();
        await(() -> a.statistics().delivered() == acknowledged, "every acknowledged message delivered");
        await(() -> a.statistics().leavingConnections() == 0, "every leaving QP destroyed");
        await(() -> a.statistics().outstanding() == a.statistics().fill(), "every receive buffer back in the SRQ");
        ActivationStatistics st = a.statistics();
        assertEquals(PEERS, st.closedConnections(), st.toString());
        assertEquals(0, st.undelivered(), st.toString());
        assertEquals(acknowledged, endpoints.distinctSequences(), "each message once: " + st);
        assertEquals(acknowledged, endpoints.received.size(), "none twice: " + st);
    }
}
