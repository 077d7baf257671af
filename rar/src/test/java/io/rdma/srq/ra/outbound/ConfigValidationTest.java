package io.rdma.srq.ra.outbound;

import io.rdma.srq.ra.testing.TestConnectionManager;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.InvalidPropertyException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.VerbsException;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.EnumSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every property of the connection definition given junk, a negative value, 0 or more than the
 * device allows: the error names the property and its allowed range. Static ranges fail when the
 * factory is created; device limits (soft_rxe0: max_srq_wr 1048576, max_srq_sge 27, one port) when
 * the device is opened.
 */
class ConfigValidationTest {

    private static SrqManagedConnectionFactory factory(String property, String value) throws Exception {
        SrqManagedConnectionFactory mcf = new SrqManagedConnectionFactory();
        mcf.setProvider("soft");
        Method setter = SrqManagedConnectionFactory.class.getMethod(
                "set" + Character.toUpperCase(property.charAt(0)) + property.substring(1), String.class);
        setter.invoke(mcf, value);
        return mcf;
    }

    @ParameterizedTest(name = "{0} = ''{1}'' → names {0} and ''{2}''")
    @CsvSource(delimiter = '|', value = {
            "provider    | opa  | one of auto, ibverbs, soft, fabric",
            "softProfile | cx7  | one of rxe, mlx5, efa",
            "port        | abc  | must be an integer in 1..255",
            "port        | -1   | in 1..255",
            "port        | 0    | in 1..255",
            "port        | 256  | in 1..255",
            "srqMaxWr    | abc  | must be an integer in 1..",
            "srqMaxWr    | -5   | in 1..",
            "srqMaxWr    | 0    | in 1..",
            "srqMaxWr    | 99999999999 | in 1..2147483647",
            "srqMaxSge   | many | must be an integer in 1..",
            "srqMaxSge   | 0    | in 1..",
            "srqLimit    | low  | must be an integer in 0..1023",
            "srqLimit    | -1   | in 0..1023",
            "srqLimit    | 1025 | in 0..1023 (0 = not armed, no limit events; below srqMaxWr, since the receives posted must exceed it)",
            "srqLimit    | 1024 | srqLimit must be in 0..1023 (0 = not armed, no limit events; below srqMaxWr, since the receives posted must exceed it), got 1024",
            "receiveBufferSize | abc | must be an integer in 1..1073741824",
            "trafficClass | 300 | trafficClass must be in 0..255",
            "ackTimeout   | 0   | ackTimeout must be in 1..31",
            "retryCount   | 9   | retryCount must be in 0..7",
            "rnrRetryCount | x  | rnrRetryCount must be an integer in 0..7",
            "receiveBufferSize | 0   | in 1..1073741824",
            "receiveBufferSize | 1073741824 | must be in 1..17179869184 (srqMaxWr × receiveBufferSize, the default SRQ's registered slab, at most 16 GiB), got 1099511627776",
            "sendBufferSize | 0 | in 1..16777216",
            "sendBufferSize | 1073741824 | sendBufferSize must be in 1..16777216 (bytes per message sent to a peer; each peer registers a send ring of 64 such slots), got 1073741824"})
    void staticRangesFailWhenTheFactoryIsCreated(String property, String value, String expected) throws Exception {
        SrqManagedConnectionFactory mcf = factory(property, value);
        InvalidPropertyException e = assertThrows(InvalidPropertyException.class,
                () -> mcf.createConnectionFactory(new TestConnectionManager()));
        assertTrue(e.getMessage().startsWith(property + " "), e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertTrue(e.getMessage().contains("'" + value + "'") || e.getMessage().contains(value)
                || property.equals("receiveBufferSize"), e.getMessage());
        assertEquals(property, e.getInvalidPropertyDescriptors()[0].getName());
    }

    @ParameterizedTest(name = "{0} = {1} on soft_rxe0 → ''{2}''")
    @CsvSource(delimiter = '|', value = {
            "srqMaxWr  | 1048577 | srqMaxWr must be in 1..1048576 (the device's max_srq_wr), got 1048577",
            "srqMaxSge | 28      | srqMaxSge must be in 1..27 (the device's max_srq_sge), got 28",
            "port      | 2       | port must be in 1..1 (the device's phys_port_cnt), got 2"})
    void deviceLimitsFailWhenTheDeviceIsOpened(String property, String value, String message) throws Exception {
        SrqManagedConnectionFactory mcf = factory(property, value);
        mcf.createConnectionFactory(new TestConnectionManager());
        ResourceException e = assertThrows(ResourceException.class, () -> mcf.createManagedConnection(null, null));
        assertEquals(message, e.getMessage());
    }

    @Test
    void aDeviceWithoutSrqOpensAndRefusesSrqsWithTheReason() throws Exception {
        SrqManagedConnectionFactory mcf = factory("softProfile", "efa");
        SrqManagedConnection mc = (SrqManagedConnection) mcf.createManagedConnection(null, null);
        try {
            SrqConnection c = (SrqConnection) mc.getConnection(null, null);
            assertTrue(c.efaAttributes().isPresent(), "the EFA device reports its attributes");
            assertTrue(c.registerMemory(4096, EnumSet.of(AccessFlag.LOCAL_WRITE)).length() >= 4096);
            VerbsException e = assertThrows(VerbsException.class, () -> c.openSrq("s", new SrqAttributes(16, 1, 0)));
            assertEquals("EOPNOTSUPP", e.errnoName());
            assertTrue(e.getMessage().contains("no SRQ support"), e.getMessage());
            VerbsException connect = assertThrows(VerbsException.class,
                    () -> c.connect(new InetSocketAddress("10.0.0.1", 1), Duration.ofSeconds(1)));
            assertEquals("EOPNOTSUPP", connect.errnoName());
        } finally {
            mc.destroy();
        }
    }
}
