package io.rdma.srq.verbs.fabric;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What the libfabric provider is built on, proven through the generated binding and
 * {@link FabricOps} against the installed libfabric (1.17 on Debian 12, 2.1 on Debian 13): the
 * {@code tcp} provider's MSG endpoints, accepted from one passive endpoint with connection-request
 * private data both ways, take their receives from <b>one shared receive context</b> (fi_srx_context,
 * fi_endpoint(3); fi_tcp(7)) — the SRQ of the verbs nouns — and deliver the sender's 8 bytes of
 * remote CQ data (FI_REMOTE_CQ_DATA, fi_cq(3): the imm_data of the verbs nouns); a client that
 * closes its endpoint is an FI_SHUTDOWN on the listener's EQ for its endpoint only (fi_cm(3);
 * driver note 27). Two clients, each with its own fabric and domain as a second process would have,
 * send into one srx on 127.0.0.1.
 */
class LibfabricSharedReceiveContextTest {
    private static final int MESSAGES = 20;
    private static final int SIZE = 64;

    private FabricTestKit kit;

    @BeforeEach
    void libfabricWithTcp() {
        assumeTrue(FabricLibrary.load(), "libfabric.so.1 is not installed (Debian package libfabric1)");
        kit = new FabricTestKit();
        assumeTrue(kit.tcpInfo("0", 0) != null, "libfabric has no tcp provider with MSG endpoints here");
    }

    @AfterEach
    void closeAll() {
        if (kit != null) {
            kit.close();
        }
    }

    @Test
    void twoClientsMessagesLandInOneSharedReceiveContextWithTheirCqDataAndAShutdownIsSeen() {
        FabricTestKit.Listener listener = kit.new Listener(2 * MESSAGES, SIZE);
        for (int i = 0; i < 2 * MESSAGES; i++) {
            listener.post(i);
        }
        FabricTestKit.Client one = kit.new Client(listener.port, "hello-1");
        FabricTestKit.Client two = kit.new Client(listener.port, "hello-2");
        FabricTestKit.await(() -> {
            listener.events();
            return listener.connected == 2 & one.connected() & two.connected();
        }, "both clients connected");
        assertEquals("welcome-hello-1", new String(one.welcome).replace("\0", ""), "the listener's private data");
        assertEquals("welcome-hello-2", new String(two.welcome).replace("\0", ""));

        for (int i = 0; i < MESSAGES; i++) {
            one.send((byte) 1, SIZE, 0x1_0000_0000L + i);
            two.send((byte) 2, SIZE, 0x2_0000_0000L + i);
        }
        Map<Long, Integer> received = new HashMap<>();
        FabricTestKit.await(() -> {
            one.reapSends();
            two.reapSends();
            for (FabricTestKit.Received r : listener.receive()) {
                assertEquals(SIZE, r.length());
                assertEquals(r.cqData() >>> 32, r.first(), "the payload and the CQ data are the same sender's");
                assertNull(received.put(r.cqData(), r.buffer()), "each message once");
            }
            return received.size() == 2 * MESSAGES && one.sendsCompleted == MESSAGES && two.sendsCompleted == MESSAGES;
        }, "40 receives from the one srx and every send completed");
        for (int i = 0; i < MESSAGES; i++) {
            assertNotNull(received.get(0x1_0000_0000L + i), "message " + i + " of client 1");
            assertNotNull(received.get(0x2_0000_0000L + i), "message " + i + " of client 2");
        }

        kit.closeNow(two.ep);
        FabricTestKit.await(() -> {
            listener.receive(); // the listener's progress: tcp sees the hang-up while its CQ is read
            listener.events();
            return !listener.shutdowns.isEmpty();
        }, "FI_SHUTDOWN of the closed client's endpoint");
        assertEquals(List.of("hello-2"), listener.shutdowns, "the shutdown names the closed client's endpoint only");
    }
}
