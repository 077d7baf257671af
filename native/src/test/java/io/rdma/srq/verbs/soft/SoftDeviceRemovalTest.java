package io.rdma.srq.verbs.soft;

import io.rdma.srq.api.AsyncEventType;
import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.PortAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.AsyncEvent;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Device removal and re-appearance, and port state, as the kernel does them for rxe (rdma_cm(7),
 * cma.c cma_process_remove, uverbs_main.c ib_uverbs_remove_one; see {@link SoftProvider#removeDevice}).
 */
class SoftDeviceRemovalTest {
    private static final String DEVICE = SoftProfile.RXE.deviceName();
    private static final Duration WAIT = Duration.ofSeconds(2);
    private final SoftProvider provider = new SoftProvider();

    @AfterEach
    void restore() {
        SoftProvider.addDevice(DEVICE);
        SoftProvider.raisePortActive(DEVICE, 1);
    }

    private static QueuePair rcQp(Context ctx, ProtectionDomain pd) throws VerbsException {
        return pd.createQp(QpInitAttributes.builder(QpInitAttributes.QpType.RC).cq(ctx.createCq(16, null))
                .maxSendWr(4).maxRecvWr(4).maxRecvSge(1).build());
    }

    @Test
    void aRemovedDeviceIsNotListedAndDoesNotOpenUntilAddedAgain() throws VerbsException {
        assertTrue(SoftProvider.removeDevice(DEVICE, WAIT), "no context was open: the removal ends at once");
        assertFalse(provider.devices().stream().anyMatch(d -> d.name().equals(DEVICE)));
        VerbsException e = assertThrows(VerbsException.class, () -> provider.open(DEVICE));
        assertEquals(Errno.ENODEV.name(), e.errnoName());
        SoftProvider.addDevice(DEVICE);
        assertTrue(provider.devices().stream().anyMatch(d -> d.name().equals(DEVICE)));
        try (Context c = provider.open(DEVICE)) {
            assertTrue(c.queryPort(1).isActive());
        }
    }

    @Test
    void removalTellsEveryBoundCmIdAndWaitsForTheLastContextToClose() throws Exception {
        int live = SoftProvider.liveObjects();
        Context server = provider.open(DEVICE);
        Context client = provider.open(DEVICE);
        CmListener listener = server.listen(new InetSocketAddress("10.77.1.1", 0), 4);
        CmListener wildcard = server.listen(new InetSocketAddress("0.0.0.0", 0), 4);
        ProtectionDomain serverPd = server.allocPd();
        ProtectionDomain clientPd = client.allocPd();
        CompletableFuture<CmConnection> active = CompletableFuture.supplyAsync(() -> {
            try {
                return client.connect(rcQp(client, clientPd), listener.localAddress(), WAIT, new byte[0]);
            } catch (VerbsException e) {
                throw new IllegalStateException(e);
            }
        });
        CmConnection passive = listener.nextEvent(WAIT).orElseThrow().request().accept(rcQp(server, serverPd));
        CmConnection activeSide = active.get();
        assertEquals(CmEventType.ESTABLISHED, listener.nextEvent(WAIT).orElseThrow().type());

        CompletableFuture<Boolean> removal = CompletableFuture.supplyAsync(() -> SoftProvider.removeDevice(DEVICE, WAIT));
        // the listener bound to an address of the device hears it for itself and for its accepted id
        boolean listenerToldItself = false;
        boolean listenerToldPassive = false;
        for (int i = 0; i < 2; i++) {
            CmEvent e = listener.nextEvent(WAIT).orElseThrow();
            assertEquals(CmEventType.DEVICE_REMOVAL, e.type());
            if (e.connection() == null) {
                listenerToldItself = true;
            } else {
                assertSame(passive, e.connection());
                listenerToldPassive = true;
            }
        }
        assertTrue(listenerToldItself && listenerToldPassive);
        assertEquals(CmEventType.DEVICE_REMOVAL, activeSide.nextEvent(WAIT).orElseThrow().type());
        assertEquals(Optional.empty(), wildcard.nextEvent(Duration.ofMillis(50)), "a wildcard listen binds no device");
        Optional<AsyncEvent> async = server.getAsyncEvent(Duration.ofMillis(50));
        assertTrue(async.isEmpty(), "rxe cannot disassociate: no IBV_EVENT_DEVICE_FATAL, got " + async);
        assertFalse(removal.isDone(), "the removal waits while contexts are open");
        assertEquals(2, SoftProvider.openContexts(DEVICE));

        server.close();
        client.close();
        assertTrue(removal.get(), "the removal ends once the last context is closed");
        assertEquals(live, SoftProvider.liveObjects());
    }

    @Test
    void aRemovalThatOutwaitsItsBoundSaysSo() throws VerbsException {
        try (Context c = provider.open(DEVICE)) {
            assertFalse(SoftProvider.removeDevice(DEVICE, Duration.ofMillis(20)));
            assertEquals(1, SoftProvider.openContexts(DEVICE));
        }
        assertEquals(0, SoftProvider.openContexts(DEVICE));
    }

    @Test
    void portErrorReadsDownUntilPortActive() throws VerbsException {
        try (Context c = provider.open(DEVICE)) {
            SoftProvider.raisePortError(DEVICE, 1);
            AsyncEvent err = c.getAsyncEvent(WAIT).orElseThrow();
            assertEquals(AsyncEventType.PORT_ERR, err.type());
            assertEquals(PortAttributes.STATE_DOWN, c.queryPort(1).state());
            SoftProvider.raisePortActive(DEVICE, 1);
            AsyncEvent up = c.getAsyncEvent(WAIT).orElseThrow();
            assertEquals(AsyncEventType.PORT_ACTIVE, up.type());
            assertEquals(1, up.portNum());
            assertTrue(c.queryPort(1).isActive());
            assertNull(up.element());
        }
    }
}
