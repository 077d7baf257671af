package io.rdma.srq.verbs.fabric;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Which connection a message from the shared receive context came on — the qp_num of a verbs work
 * completion — is what a libfabric CQ entry does not say (struct fi_cq_data_entry has no endpoint).
 * Each endpoint's receives complete on the CQ bound to it (driver note 27), so with a CQ per
 * endpoint, all in one poll set, fi_poll(3) names the CQs that have completions (by the context
 * given to fi_cq_open) and each receive is attributed to its endpoint. Three clients, one srx:
 * every message is attributed to the client that sent it.
 */
class LibfabricCompletionRoutingTest {
    private static final int CLIENTS = 3;
    private static final int MESSAGES = 30;
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
    void aCqPerEndpointInOnePollSetAttributesEverySharedReceiveToItsConnection() {
        FabricTestKit.Listener listener = kit.new Listener(CLIENTS * MESSAGES, SIZE, true);
        for (int i = 0; i < CLIENTS * MESSAGES; i++) {
            listener.post(i);
        }
        List<FabricTestKit.Client> clients = new ArrayList<>();
        for (int c = 1; c <= CLIENTS; c++) {
            clients.add(kit.new Client(listener.port, "client-" + c));
        }
        FabricTestKit.await(() -> {
            listener.events();
            boolean all = true;
            for (FabricTestKit.Client c : clients) {
                all &= c.connected();
            }
            return all && listener.connected == CLIENTS;
        }, "every client connected");
        for (int i = 0; i < MESSAGES; i++) {
            for (int c = 1; c <= CLIENTS; c++) {
                clients.get(c - 1).send((byte) c, SIZE, ((long) c << 32) + i);
            }
        }
        Map<String, List<Long>> byEndpoint = new HashMap<>();
        int[] total = {0};
        FabricTestKit.await(() -> {
            clients.forEach(FabricTestKit.Client::reapSends);
            for (FabricTestKit.Received r : listener.receive()) {
                assertEquals("client-" + r.first(), r.endpoint(), "the CQ that reported it is its sender's endpoint's");
                byEndpoint.computeIfAbsent(r.endpoint(), k -> new ArrayList<>()).add(r.cqData() & 0xFFFF_FFFFL);
                total[0]++;
            }
            return total[0] == CLIENTS * MESSAGES;
        }, "every message, attributed");
        List<Long> inOrder = new ArrayList<>();
        for (long i = 0; i < MESSAGES; i++) {
            inOrder.add(i);
        }
        for (int c = 1; c <= CLIENTS; c++) {
            assertEquals(inOrder, byEndpoint.get("client-" + c), "client " + c + "'s messages, in order, on its endpoint");
        }
    }
}
