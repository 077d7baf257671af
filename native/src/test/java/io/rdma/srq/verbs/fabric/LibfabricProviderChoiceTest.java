package io.rdma.srq.verbs.fabric;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.DeviceInfo;
import io.rdma.srq.verbs.Verbs;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Which libfabric provider the fabric provider opens, and what a wrong choice says: its devices are
 * the libfabric providers it runs on (tcp here), by name; a name libfabric does not offer with MSG
 * endpoints on shared receive contexts (shm: RDM only; sockets: left out; a typo) is ENODEV naming
 * what libfabric offers — never a silent fallback.
 */
class LibfabricProviderChoiceTest {
    private final FabricProvider provider = new FabricProvider();

    @BeforeEach
    void libfabricInstalled() {
        assumeTrue(FabricLibrary.load(), "libfabric.so.1 is not installed (apt-get install libfabric1)");
    }

    @Test
    void theServiceLoaderFindsItAndItListsTcp() {
        assertEquals(FabricProvider.NAME, Verbs.provider("fabric").name());
        List<String> names = provider.devices().stream().map(DeviceInfo::name).toList();
        assertTrue(names.contains("tcp"), "devices " + names);
        assertFalse(names.contains("sockets"), "sockets is left out: " + names);
        assertEquals("tcp", provider.deviceOfAddress(java.net.InetAddress.getLoopbackAddress()).orElseThrow());
    }

    @Test
    void opensTcpAsADeviceWithOnePortAndSrqs() {
        try (Context ctx = provider.open("tcp")) {
            assertEquals("tcp", ctx.deviceName());
            assertEquals(FabricProvider.NAME, ctx.providerName());
            assertTrue(ctx.queryDevice().maxSrq() > 0);
            assertTrue(ctx.queryPort(1).isActive());
        }
    }

    @Test
    void aProviderWithoutMsgEndpointsOnSharedReceiveContextsIsEnodevNamingWhatThereIs() {
        for (String name : List.of("shm", "sockets", "tpc")) {
            VerbsException e = assertThrows(VerbsException.class, () -> provider.open(name));
            assertEquals(Errno.ENODEV.name(), e.errnoName(), e.getMessage());
            assertTrue(e.getMessage().contains("device=" + name), e.getMessage());
            assertTrue(e.getMessage().contains("tcp"), "names what libfabric offers: " + e.getMessage());
        }
    }
}
