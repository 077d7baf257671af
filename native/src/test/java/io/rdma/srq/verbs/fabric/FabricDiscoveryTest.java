package io.rdma.srq.verbs.fabric;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The fabrics the provider can use are libfabric's MSG endpoints with shared receive contexts:
 * tcp on every interface with an address (here 127.0.0.1 among them), never an RDM-only provider
 * such as shm; a name keeps to that provider; an unknown one gives nothing, not an error.
 */
class FabricDiscoveryTest {

    @Test
    void tcpOffersMsgEndpointsWithSharedReceiveContextsOnLoopback() {
        assumeTrue(FabricLibrary.load(), "libfabric.so.1 is not installed (Debian package libfabric1)");
        List<FabricDiscovery.Choice> all = FabricDiscovery.msgWithSharedReceive(null);
        assertFalse(all.isEmpty(), "libfabric lists no MSG endpoint with a shared receive context");
        assertTrue(all.stream().noneMatch(c -> c.provider().contains("shm")), "shm has RDM endpoints only: " + all);
        List<FabricDiscovery.Choice> tcp = FabricDiscovery.msgWithSharedReceive("tcp");
        assertFalse(tcp.isEmpty(), "tcp: " + all);
        for (FabricDiscovery.Choice c : tcp) {
            assertEquals("tcp", c.provider());
            assertTrue(c.maxEpSrxCtx() > 0 && c.srxSize() > 0, c.toString());
            assertTrue(c.cqDataSize() >= 4, "room for imm_data in the CQ data: " + c);
        }
        assertTrue(tcp.stream().anyMatch(c -> c.fabric().startsWith("127.")), "a loopback fabric: " + tcp);
        assertEquals(List.of(), FabricDiscovery.msgWithSharedReceive("no-such-provider"));
    }
}
