package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.DeviceInfo;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.VerbsProvider;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * libibverbs is installed wherever this project builds (README prerequisites); a device may or may
 * not exist. These hold either way.
 */
class IbvProviderTest {

    @Test
    void libibverbsLoadsAndListsDevicesWithoutFailing() throws VerbsException {
        VerbsProvider ibverbs = Verbs.provider(Verbs.IBVERBS);
        assertTrue(ibverbs.unavailableReason().isEmpty());
        List<DeviceInfo> devices = ibverbs.devices();
        devices.forEach(d -> assertEquals(Verbs.IBVERBS, d.provider()));
    }

    @Test
    void openingAMissingDeviceNamesItAndListsWhatIsAvailable() throws VerbsException {
        VerbsProvider ibverbs = Verbs.provider(Verbs.IBVERBS);
        List<String> available = ibverbs.devices().stream().map(DeviceInfo::name).toList();
        VerbsException e = assertThrows(VerbsException.class, () -> ibverbs.open("no_such_hca9"));
        assertEquals(Errno.ENODEV.value(), e.errno());
        assertEquals("ibv_open_device", e.operation());
        assertTrue(e.getMessage().contains("'no_such_hca9'"), e.getMessage());
        assertTrue(e.getMessage().contains("available: "), e.getMessage());
        if (available.isEmpty()) {
            assertTrue(e.getMessage().contains("none"), e.getMessage());
        } else {
            available.forEach(n -> assertTrue(e.getMessage().contains(n), e.getMessage()));
        }
    }

    @Test
    void anUnknownProviderNameListsTheInstalledOnes() {
        VerbsException e = assertThrows(VerbsException.class, () -> Verbs.provider("opa"));
        assertEquals(Errno.ENODEV.value(), e.errno());
        assertTrue(e.getMessage().contains("ibverbs"), e.getMessage());
    }
}
