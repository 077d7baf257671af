package io.rdma.srq.ra.fabric;

import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nothing lost at a disconnect on the fabric provider: a peer whose sends all completed (the
 * default FI_DELIVERY_COMPLETE: each one held by the activation's side) goes away while its
 * messages still wait in the CQ behind a busy endpoint — its pooled connection destroyed, so its
 * endpoint is closed and FI_SHUTDOWN reaches the activation — and every one of them is delivered
 * once, its connection is released and every receive buffer comes back to the SRQ — the
 * soft-device DisconnectTeardownTest's case, across the provider two servers use. (Mutation check:
 * with the member CQ's drain at close removed the test still passes — by then the poller has read
 * the completions into the CQ's ring — so what it guards is the adapter's whole path, not that drain.)
 */
class LibfabricDisconnectTest extends LibfabricAdapterTest {
    private static final int MESSAGES = 200;

    @ParameterizedTest(name = "ordering={0}, maxConcurrency={1}")
    @CsvSource({"none, 1", "none, 4", "connection, 4"})
    void sentMessagesStillInTheCqWhenThePeerGoesAwayAreAllDelivered(String ordering, String maxConcurrency)
            throws Exception {
        SrqActivation a = activate(spec -> {
            spec.setBufferSize("64");
            spec.setOrdering(ordering);
            spec.setMaxConcurrency(maxConcurrency);
        });
        endpoints.close(); // the MDB is slow: what arrives waits in the CQ
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer p = c.connect(at(a, 1), T);
            ByteBuffer m = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
            for (long seq = 0; seq < MESSAGES; seq++) {
                p.send(m.clear().putLong(0, seq), (int) seq);
            }
            p.flush(T); // every send complete: the activation's side has each message
            assertEquals(MESSAGES, p.sent());
            p.close();
        }
        cm.flush(); // the pooled connection destroyed: its endpoint closes, the activation sees the peer go
        waitUntil(() -> a.statistics().connections() == 0, "the disconnect taken");
        ActivationStatistics held = a.statistics();
        assertTrue(held.delivered() < MESSAGES, "delivery was still held when the peer went: " + held);
        endpoints.open();
        waitUntil(() -> a.statistics().delivered() == MESSAGES, "every sent message delivered");
        waitUntil(() -> a.statistics().closedConnections() == 1, "the QP destroyed");
        waitUntil(() -> a.statistics().outstanding() == a.statistics().fill(), "every receive buffer back in the SRQ");
        ActivationStatistics st = a.statistics();
        assertEquals(0, st.undelivered(), st.toString());
        assertEquals(0, st.errorCompletions(), st.toString());
        assertEquals(0, st.leavingConnections(), st.toString());
        assertEquals(MESSAGES, endpoints.distinctSequences(), "each message once");
        assertTrue(endpoints.violations.isEmpty(), endpoints.violations.toString());
    }
}
