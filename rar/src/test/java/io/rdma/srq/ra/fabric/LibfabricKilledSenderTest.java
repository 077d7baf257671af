package io.rdma.srq.ra.fabric;

import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nothing lost when a peer process is killed: a sender in another JVM ({@link FlushedSender}, a
 * pooled connection on the fabric provider) sends 500 messages to this JVM's activation, sees every
 * send complete (FI_DELIVERY_COMPLETE: the activation's side holds each one) while the activation's
 * endpoint is busy, and is killed (SIGKILL) with its connection open. The activation sees the peer
 * go (FI_SHUTDOWN: the kernel closes the dead process's socket), releases its connection, and still
 * delivers every one of the 500 messages once, every receive buffer back in the SRQ.
 */
class LibfabricKilledSenderTest extends LibfabricAdapterTest {
    private static final int MESSAGES = 500;

    @Test
    void everyMessageAKilledSenderSawCompleteIsDelivered() throws Exception {
        SrqActivation a = activate(spec -> {
            spec.setListenAddress("127.0.0.1");
            spec.setBufferSize("64");
            spec.setSrqMaxWr("1024");
        });
        endpoints.close(); // the MDB is busy: what arrives waits
        try (ChildJvm sender = ChildJvm.start(FlushedSender.class, "fabric", "tcp", "127.0.0.1",
                String.valueOf(a.listenAddress().getPort()), String.valueOf(MESSAGES))) {
            String line = sender.nextLine(Duration.ofSeconds(60));
            assertEquals("FLUSHED " + MESSAGES, line, "the sender saw every send complete");
            waitUntil(() -> a.statistics().connections() == 1, "the sender's connection counted");
            sender.kill();
        }
        waitUntil(() -> a.statistics().connections() == 0, "the killed peer's connection released");
        ActivationStatistics held = a.statistics();
        assertTrue(held.delivered() < MESSAGES, "delivery was still held when the peer died: " + held);
        endpoints.open();
        waitUntil(() -> a.statistics().delivered() == MESSAGES, "every completed send delivered");
        waitUntil(() -> a.statistics().outstanding() == a.statistics().fill(), "every receive buffer back in the SRQ");
        waitUntil(() -> a.statistics().closedConnections() == 1, "the killed peer's QP destroyed");
        ActivationStatistics st = a.statistics();
        assertEquals(0, st.undelivered(), st.toString());
        assertEquals(0, st.leavingConnections(), st.toString());
        assertEquals(MESSAGES, endpoints.distinctSequences(), "each message once");
    }
}
