package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;

import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.ra.testing.SoftActivationTest;
import io.rdma.srq.ra.testing.SoftSender;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A peer that disconnects while its acknowledged messages still wait in the CQ (the endpoints are
 * busy: backpressure) loses none of them: its QP goes to ERROR and is destroyed only after every
 * completion it put in the CQ has been polled — on soft_mlx5_0 a destroy removes the unpolled ones,
 * as mlx5's {@code __mlx5_cq_clean} does (driver note 18) — and every receive buffer comes back to
 * the SRQ. On soft_mlx5_0 IBV_EVENT_QP_LAST_WQE_REACHED announces the QP's end; soft_rxe0 (kernel
 * 6.1's rxe) never raises it, so the quiet period does.
 */
class DisconnectTeardownTest extends SoftActivationTest {
    private static final int MESSAGES = 200;

    private SrqActivation activate(String profile, String ordering, String maxConcurrency) throws Exception {
        return activate(spec("softProfile", profile, "listenAddress", "mlx5".equals(profile) ? "10.77.1.2" : "10.0.0.1",
                "srqMaxWr", "256", "srqLimit", "0", "bufferSize", "64", "ordering", ordering,
                "maxConcurrency", maxConcurrency));
    }

    /** Sends {@value #MESSAGES} messages, all acknowledged, then disconnects. */
    private static void sendAllThenDisconnect(SrqActivation a) throws Exception {
        SoftSender s = new SoftSender(a.listenAddress(), 64);
        try {
            for (long seq = 0; seq < MESSAGES; seq++) {
                s.send(seq, 64, null);
            }
            s.drain(PATIENCE);
            assertEquals(MESSAGES, s.acknowledged, "every message acknowledged: the receiver holds it");
        } finally {
            s.close(); // rdma_disconnect: DISCONNECTED at the activation
        }
    }

    @ParameterizedTest(name = "{0}, ordering={1}, maxConcurrency={2}")
    @CsvSource({"mlx5, none, 1", "mlx5, none, 4", "mlx5, connection, 4", "rxe, none, 1", "rxe, connection, 4"})
    void acknowledgedMessagesStillInTheCqAtADisconnectAreDeliveredAndTheirBuffersComeBack(String profile,
            String ordering, String maxConcurrency) throws Exception {
        SrqActivation a = activate(profile, ordering, maxConcurrency);
        endpoints.close(); // the MDB is slow: what arrives waits in the CQ
        sendAllThenDisconnect(a);
        await(() -> a.statistics().connections() == 0, "the disconnect taken");
        endpoints.open();
        await(() -> a.statistics().delivered() == MESSAGES, "every acknowledged message delivered");
        await(() -> a.statistics().closedConnections() == 1, "the QP destroyed");
        await(() -> a.statistics().outstanding() == a.statistics().fill(), "every receive buffer back in the SRQ");
        ActivationStatistics st = a.statistics();
        assertEquals(0, st.undelivered(), st.toString());
        assertEquals(0, st.leavingConnections(), st.toString());
        assertEquals(MESSAGES, endpoints.distinctSequences(), "each message once");
        assertEquals("mlx5".equals(profile) ? 1 : 0, st.closedOnLastWqe(),
                "the end announced by IBV_EVENT_QP_LAST_WQE_REACHED on soft_mlx5_0 only: " + st);
    }

    @ParameterizedTest(name = "{0}, ordering={1}")
    @CsvSource({"mlx5, none", "mlx5, connection", "rxe, none"})
    void aLeavingQpIsDestroyedWhileItsMessagesStillWaitForABusyEndpoint(String profile, String ordering)
            throws Exception {
        SrqActivation a = activate(profile, ordering, "2");
        endpoints.close();
        sendAllThenDisconnect(a);
        // the poller takes the leaving QP's completions although no endpoint is free, and holds them
        await(() -> a.statistics().closedConnections() == 1, "the QP destroyed while delivery is held");
        ActivationStatistics held = a.statistics();
        assertTrue(held.delivered() < MESSAGES, "delivery was still held: " + held);
        assertEquals(0, held.leavingConnections());
        endpoints.open();
        await(() -> a.statistics().delivered() == MESSAGES, "every acknowledged message delivered");
        await(() -> a.statistics().outstanding() == a.statistics().fill(), "every receive buffer back in the SRQ");
        assertEquals(MESSAGES, endpoints.distinctSequences(), "each message once, in spite of being held");
    }
}
