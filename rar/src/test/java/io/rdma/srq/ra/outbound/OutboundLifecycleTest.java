package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.RegisteredMemory;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.api.SrqHandle;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.testing.SoftAdapterTest;
import io.rdma.srq.verbs.soft.SoftProvider;
import jakarta.resource.NotSupportedException;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.TransactionSupport;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Outbound connections on the soft device, with a pooling test ConnectionManager and no container. */
class OutboundLifecycleTest extends SoftAdapterTest {

    @org.junit.jupiter.api.AfterEach
    void portUpAgain() {
        SoftProvider.raisePortActive("soft_rxe0", 1); // a test took port 1 down: ibv_query_port reads DOWN until then
    }

    @Test
    void aConnectionReportsTheDeviceAndOpensNamedSrqsOfAtLeastTheSpec() throws Exception {
        try (SrqConnection c = factory.getConnection()) {
            assertEquals("soft_rxe0", c.deviceName());
            assertEquals("soft", c.providerName());
            assertEquals(1, c.portNumber());
            assertEquals(1048576, c.deviceAttributes().maxSrqWr());
            assertTrue(c.portAttributes().isActive());
            assertTrue(c.efaAttributes().isEmpty(), "rxe is not EFA");
            SrqHandle srq = c.openSrq("orders", new SrqAttributes(1024, 1, 0));
            assertEquals(2047, srq.maxWr(), "rxe rounds 1024 up to 2^n − 1");
            assertEquals("orders", srq.name());
        }
    }

    @Test
    void closingAHandleReturnsThePooledConnectionWhichKeepsItsSrqs() throws Exception {
        SrqConnection first = factory.getConnection();
        SrqHandle srq = first.openSrq("orders", new SrqAttributes(100, 1, 0));
        RegisteredMemory slab = first.registerMemory(64 * 1024, EnumSet.of(AccessFlag.LOCAL_WRITE));
        int maxWr = srq.maxWr();
        int liveWithMr = SoftProvider.liveObjects();
        first.close();
        assertEquals(List.of("CLOSED"), cm.events);
        assertEquals(liveWithMr - 1, SoftProvider.liveObjects(), "the handle's MR is freed, the SRQ kept");
        assertEquals(1, cm.free.size());

        try (SrqConnection second = factory.getConnection()) {
            assertEquals(1, cm.all.size(), "the pooled connection was matched and reused");
            SrqHandle again = second.openSrq("orders", new SrqAttributes(100, 1, 0));
            assertEquals(maxWr, again.maxWr());
            assertEquals(1, ((SrqManagedConnection) cm.all.iterator().next()).srqCount());
        }
    }

    @Test
    void useAfterCloseIsAnIllegalStateException() throws Exception {
        SrqConnection c = factory.getConnection();
        SrqHandle srq = c.openSrq("orders", new SrqAttributes(16, 1, 0));
        RegisteredMemory m = c.registerMemory(4096, EnumSet.of(AccessFlag.LOCAL_WRITE));
        c.close();
        c.close(); // idempotent
        assertThrows(IllegalStateException.class, c::deviceName);
        assertThrows(IllegalStateException.class, () -> c.openSrq("x", new SrqAttributes(1, 1, 0)));
        assertThrows(IllegalStateException.class, srq::maxWr);
        assertThrows(IllegalStateException.class, m::segment);
    }

    @Test
    void theAdapterOwnsTheReceiveSideOneSlabFilledAndArmedAfterThePosts() throws Exception {
        try (SrqConnection c = factory.getConnection()) {
            SrqHandle srq = c.openSrq("small", new SrqAttributes(8, 1, 4)); // rxe: 15
            SrqManagedConnection mc = (SrqManagedConnection) cm.all.iterator().next();
            assertEquals(15, srq.maxWr());
            assertEquals(4096, srq.receiveBufferSize());
            assertEquals(8L * 4096, mc.registeredReceiveBytes(),
                    "one slab of the configured max_wr (not the device's rounded 15) × receiveBufferSize");
            assertEquals(8, mc.outstandingReceives(), "every buffer posted");
            assertEquals(4, srq.srqLimit(), "armed after the posts, not at create");
            VerbsException limit = assertThrows(VerbsException.class,
                    () -> c.openSrq("bad", new SrqAttributes(8, 1, 8)));
            assertEquals("EINVAL", limit.errnoName());
            assertTrue(limit.getMessage().contains("srq_limit 8"), limit.getMessage());
            VerbsException big = assertThrows(VerbsException.class,
                    () -> c.openSrq("big", new SrqAttributes(1 << 20, 1, 0))); // within max_srq_wr, past max_cqe
            assertEquals("EINVAL", big.errnoName());
            assertTrue(big.getMessage().contains("max_wr 1048576 must be in 1..") && big.getMessage().contains("max_cqe"),
                    big.getMessage());
        }
    }

    @Test
    void applicationsCannotPostResizeOrArmAPooledSrq() {
        for (String verb : List.of("postReceives", "resize", "armLimit")) {
            assertTrue(java.util.Arrays.stream(SrqHandle.class.getMethods()).noneMatch(m -> m.getName().equals(verb)),
                    verb + " is the adapter's alone");
        }
    }

    @Test
    void anSrqNameOpenWithLessThanAskedIsEexist() throws Exception {
        try (SrqConnection c = factory.getConnection()) {
            c.openSrq("orders", new SrqAttributes(100, 1, 0));
            VerbsException e = assertThrows(VerbsException.class, () -> c.openSrq("orders", new SrqAttributes(5000, 1, 0)));
            assertEquals("EEXIST", e.errnoName());
        }
    }

    @Test
    void matchingTakesOnlyUsableConnectionsOfTheSameFactory() throws Exception {
        factory.getConnection().close();
        ManagedConnection pooled = cm.free.iterator().next();
        assertSame(pooled, mcf.matchManagedConnections(Set.of(pooled), null, null));

        SrqManagedConnectionFactory other = new SrqManagedConnectionFactory();
        other.setProvider("soft");
        assertNull(other.matchManagedConnections(Set.of(pooled), null, null), "another definition never matches");

        pooled.destroy();
        assertNull(mcf.matchManagedConnections(Set.of(pooled), null, null), "a destroyed one never matches");
        cm.free.clear();
        cm.all.clear();
    }

    @Test
    void destroyFreesEveryNativeObjectChildrenFirst() throws Exception {
        SrqConnection c = factory.getConnection();
        c.openSrq("a", new SrqAttributes(64, 1, 0));
        c.openSrq("b", new SrqAttributes(64, 1, 0));
        c.registerMemory(4096, EnumSet.of(AccessFlag.LOCAL_WRITE));
        assertTrue(SoftProvider.liveObjects() > liveBefore);
        cm.flush();
        assertEquals(liveBefore, SoftProvider.liveObjects());
        assertThrows(IllegalStateException.class, c::deviceName);
    }

    @Test
    void stoppingTheAdapterDestroysWhatThePoolStillHolds() throws Exception {
        factory.getConnection().close();
        factory.getConnection();
        assertEquals(1, ra.openConnections());
        ra.stop();
        assertEquals(0, ra.openConnections());
        assertEquals(liveBefore, SoftProvider.liveObjects());
        cm.free.clear();
        cm.all.clear();
    }

    @Test
    void theNonManagedFactoryOpensAndDestroysPerHandle() throws Exception {
        SrqConnectionFactory unmanaged = (SrqConnectionFactory) mcf.createConnectionFactory();
        SrqConnection a = unmanaged.getConnection();
        SrqConnection b = unmanaged.getConnection();
        assertNotSame(a, b);
        a.close();
        b.close();
        assertEquals(liveBefore, SoftProvider.liveObjects());
    }

    @Test
    void deviceFatalRaisesConnectionErrorOccurredAndThePoolDestroysTheConnection() throws Exception {
        factory.getConnection().close();
        assertEquals(1, cm.free.size());
        assertTrue(SoftProvider.raiseDeviceFatal("soft_rxe0") >= 1);
        // the servicing thread (idle connections) or matching (getConnection) reads the event first
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
        while (cm.events.size() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        try (SrqConnection c = factory.getConnection()) {
            assertEquals(List.of("CLOSED", "ERROR"), cm.events.subList(0, 2),
                    "IBV_EVENT_DEVICE_FATAL read and CONNECTION_ERROR_OCCURRED reported");
            assertEquals(1, cm.all.size(), "the lost connection was destroyed, a new one opened");
        }
    }

    @Test
    void backgroundValidationFindsALostDeviceAndNothingElse() throws Exception {
        factory.getConnection().close();
        ManagedConnection pooled = cm.free.iterator().next();
        assertEquals(Set.of(), mcf.getInvalidConnections(Set.of(pooled)), "a healthy connection (port 1 ACTIVE) is valid");
        assertTrue(SoftProvider.raiseDeviceFatal("soft_rxe0") >= 1);
        assertEquals(Set.of(pooled), mcf.getInvalidConnections(Set.of(pooled)),
                "IBV_EVENT_DEVICE_FATAL makes it invalid for the pool's background validation");
        assertEquals(List.of("CLOSED", "ERROR"), cm.events.subList(0, 2), "and reports CONNECTION_ERROR_OCCURRED");
    }

    @Test
    void aPortErrorOnItsPortIsDeviceLossAndOnAnotherPortIsNot() throws Exception {
        factory.getConnection().close();
        SoftProvider.raisePortError("soft_rxe0", 2);
        factory.getConnection().close();
        assertEquals(List.of("CLOSED", "CLOSED"), cm.events, "IBV_EVENT_PORT_ERR of port 2 leaves port 1 alone");
        SoftProvider.raisePortError("soft_rxe0", 1);
        factory.getConnection().close();
        assertEquals(List.of("CLOSED", "CLOSED", "ERROR", "CLOSED"), cm.events);
    }

    @Test
    void tenThousandConnectionsOpenedAndClosedLeakNothing() throws Exception {
        SrqConnectionFactory unmanaged = (SrqConnectionFactory) mcf.createConnectionFactory();
        for (int i = 0; i < 10_000; i++) {
            try (SrqConnection c = unmanaged.getConnection()) { // a context + PD each, destroyed on close
                if (i % 100 == 0) {
                    c.openSrq("s", new SrqAttributes(16, 1, 0));
                    c.registerMemory(4096, EnumSet.of(AccessFlag.LOCAL_WRITE));
                }
            }
        }
        for (int i = 0; i < 10_000; i++) {
            factory.getConnection().close(); // through the pool
        }
        cm.flush();
        assertEquals(liveBefore, SoftProvider.liveObjects(), "0 native objects leaked");
        assertEquals(0, ra.openConnections());
    }

    @Test
    void connectionsAreNotTransactional() throws Exception {
        assertEquals(TransactionSupport.TransactionSupportLevel.NoTransaction, mcf.getTransactionSupport());
        factory.getConnection().close();
        ManagedConnection mc = cm.free.iterator().next();
        assertThrows(NotSupportedException.class, mc::getXAResource);
        assertThrows(NotSupportedException.class, mc::getLocalTransaction);
        assertTrue(mc.getMetaData().getEISProductName().contains("soft"));
    }
}
