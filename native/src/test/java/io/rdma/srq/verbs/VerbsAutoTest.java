package io.rdma.srq.verbs;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.testing.LogLines;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** provider=auto never hands an operator the in-JVM soft device while a real RDMA device is there. */
class VerbsAutoTest {

    /** A provider that lists the given devices and opens none. */
    private record Listing(String name, Optional<String> unavailableReason, List<DeviceInfo> devices)
            implements VerbsProvider {
        @Override
        public Context open(String deviceName) throws VerbsException {
            throw new VerbsException("ibv_open_device", Errno.ENODEV, deviceName);
        }

        @Override
        public Optional<String> deviceOfAddress(java.net.InetAddress address) throws VerbsException {
            throw new VerbsException("rdma_bind_addr", Errno.EADDRNOTAVAIL, address.toString());
        }
    }

    private static final VerbsProvider SOFT = new Listing("soft", Optional.empty(), List.of());

    @Test
    void aListedDeviceChoosesIbverbs() throws Exception {
        VerbsProvider ib = new Listing("ibverbs", Optional.empty(), List.of(new DeviceInfo("rxe0", 0L, "rxe")));
        assertSame(ib, Verbs.auto(Optional.of(ib), Optional.of(SOFT), List.of("rxe0")));
    }

    @Test
    void noRdmaStackAtAllChoosesTheSoftDevice() throws Exception {
        assertSame(SOFT, Verbs.auto(Optional.empty(), Optional.of(SOFT), List.of()));
        VerbsProvider none = new Listing("ibverbs", Optional.empty(), List.of());
        assertSame(SOFT, Verbs.auto(Optional.of(none), Optional.of(SOFT), List.of()));
    }

    @Test
    void theSameChoiceIsLoggedOnceNotOnEveryOpen() throws Exception {
        try (LogLines log = LogLines.capture("io.rdma.srq.verbs")) {
            List<String> lines = log.lines();
            VerbsProvider none = new Listing("ibverbs", Optional.empty(), List.of());
            VerbsProvider ib = new Listing("ibverbs", Optional.empty(), List.of(new DeviceInfo("rxe0", 0L, "rxe")));
            Verbs.auto(Optional.of(ib), Optional.of(SOFT), List.of("rxe0")); // a different last choice first
            lines.clear();
            for (int i = 0; i < 5; i++) { // e.g. every /metrics scrape reads the device state
                Verbs.auto(Optional.of(none), Optional.of(SOFT), List.of());
            }
            assertEquals(1, log.containing("SRQVB000").size(), "SRQVB0002 once for five equal choices: " + lines);
            Verbs.auto(Optional.of(ib), Optional.of(SOFT), List.of("rxe0"));
            assertEquals(2, log.containing("SRQVB000").size(), "a changed choice is logged again: " + lines);
        }
    }

    @Test
    void aKernelDeviceLibibverbsCannotListIsAnErrorNamingTheFix() {
        VerbsProvider none = new Listing("ibverbs", Optional.empty(), List.of());
        VerbsException e = assertThrows(VerbsException.class,
                () -> Verbs.auto(Optional.of(none), Optional.of(SOFT), List.of("mlx5_0")));
        assertTrue(e.is(Errno.ENODEV));
        assertTrue(e.getMessage().contains("mlx5_0") && e.getMessage().contains("ibverbs-providers")
                && e.getMessage().contains("/dev/infiniband") && e.getMessage().contains("provider=soft"), e.getMessage());
        VerbsProvider missing = new Listing("ibverbs", Optional.of("libibverbs.so.1 is not installed"), List.of());
        assertThrows(VerbsException.class, () -> Verbs.auto(Optional.of(missing), Optional.of(SOFT), List.of("rxe0")));
    }

    @Test
    void kernelDevicesAreTheSysfsEntries(@TempDir Path dir) throws Exception {
        assertEquals(List.of(), Verbs.kernelDevices(dir.resolve("absent")));
        Files.createDirectory(dir.resolve("rxe0"));
        Files.createDirectory(dir.resolve("mlx5_0"));
        assertEquals(List.of("mlx5_0", "rxe0"), Verbs.kernelDevices(dir));
    }
}
