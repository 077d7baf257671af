package io.rdma.srq.ra.support;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.testing.LogLines;
import jakarta.resource.spi.InvalidPropertyException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code device} property on the soft provider: by name, by interface address (the soft devices'
 * own 10.77.1.n), by GID, or empty (the soft profile's device) — each choice logged with SRQRA0050
 * and its reason; an address no interface has and a malformed GID are clear errors.
 */
class DeviceSelectionTest {
    private LogLines log;

    @BeforeEach
    void capture() {
        log = LogLines.capture("io.rdma.srq.ra");
    }

    @AfterEach
    void release() {
        log.close();
    }

    private String chosen(String device, String profile) throws Exception {
        DeviceSelection s = DeviceSelection.parse(new PropertyCheck(Object.class), "soft", device, profile);
        try (Context c = s.open("test of " + device)) {
            return c.deviceName();
        }
    }

    private String lastLine() {
        return log.containing("SRQRA0050").stream().reduce((a, b) -> b).orElse("no SRQRA0050 in " + log.lines());
    }

    @Test
    void byName() throws Exception {
        assertEquals("soft_mlx5_0", chosen("soft_mlx5_0", "rxe"));
        assertTrue(lastLine().contains("device soft_mlx5_0, chosen by name"), lastLine());
    }

    @Test
    void byInterfaceAddress() throws Exception {
        assertEquals("soft_mlx5_0", chosen("10.77.1.2", "rxe"));
        assertTrue(lastLine().contains("by interface address 10.77.1.2 (rdma_bind_addr)"), lastLine());
        assertEquals("soft_efa0", chosen("10.0.0.1", "efa"), "a soft host address of no device: the profile's");
        assertTrue(lastLine().contains("softProfile efa"), lastLine());
    }

    @Test
    void byGid() throws Exception {
        assertEquals("soft_mlx5_0", chosen("gid:::ffff:10.77.1.2", "rxe"));
        assertTrue(lastLine().contains("by GID ::ffff:10.77.1.2"), lastLine());
        VerbsException none = assertThrows(VerbsException.class, () -> chosen("gid:fe80::1234", "rxe"));
        assertTrue(none.is(Errno.ENODEV) && none.getMessage().contains("fe80::1234"), none.getMessage());
        // a malformed GID is a bad property, refused when the configuration is read, before any device is opened
        InvalidPropertyException bad = assertThrows(InvalidPropertyException.class, () -> chosen("gid:rxe0", "rxe"));
        assertTrue(bad.getMessage().contains("device=gid:rxe0") && bad.getMessage().contains("IPv6 notation"),
                bad.getMessage());
    }

    @Test
    void emptyIsTheSoftProfilesDeviceAndSaysSo() throws Exception {
        assertEquals("soft_rxe0", chosen("", "rxe"));
        assertTrue(lastLine().contains("INFO") && lastLine().contains("test of : device soft_rxe0, chosen as softProfile rxe"),
                lastLine());
    }

    @Test
    void anAddressNoInterfaceHasIsEaddrnotavail() {
        VerbsException e = assertThrows(VerbsException.class, () -> chosen("192.0.2.77", "rxe"));
        assertTrue(e.is(Errno.EADDRNOTAVAIL) && e.getMessage().contains("192.0.2.77"), e.getMessage());
    }
}
