package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.ra.testing.SoftAdapterTest;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.soft.SoftProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pooled connections on a device that is removed (rxe's semantics: the removal waits until every
 * user closed the device; only rdma_cm ids hear of it, see SoftProvider.removeDevice): idle ones,
 * with or without peers, are failed by the definition's servicing thread (CONNECTION_ERROR_OCCURRED,
 * the pool destroys them), so the removal completes; once the device is back, getConnection() works
 * again without a redeploy. The definition is on soft_mlx5_0, the remote listener on soft_rxe0.
 */
class PooledConnectionRemovalTest extends SoftAdapterTest {
    private static final String DEVICE = "soft_mlx5_0";

    @BeforeEach
    void onMlx5() {
        mcf.setSoftProfile("mlx5");
    }

    @AfterEach
    void deviceBack() {
        SoftProvider.addDevice(DEVICE);
    }

    private static long removeAndTime() {
        long start = System.nanoTime();
        assertTrue(SoftProvider.removeDevice(DEVICE, Duration.ofSeconds(10)),
                "the removal completes: the pool released every pooled connection of the device");
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    @Test
    void anIdlePooledConnectionWithoutPeersIsReleasedWhenItsDeviceIsRemovedAndTheNextGetConnectionWorks() throws Exception {
        try (SrqConnection c = factory.getConnection()) {
            assertEquals(DEVICE, c.deviceName());
        }
        assertEquals(1, cm.free.size(), "one idle pooled connection");
        long ms = removeAndTime();
        System.out.printf("device removal with an idle pooled connection (no rdma_cm id): released in %d ms%n", ms);
        assertTrue(ms < 5_000, "released in " + ms + " ms (the device list is read once a second)");
        assertEquals(List.of("CLOSED", "ERROR"), cm.events, "CONNECTION_ERROR_OCCURRED: the pool destroyed it");
        assertEquals(0, cm.all.size());
        assertEquals(0, SoftProvider.openContexts(DEVICE));

        SoftProvider.addDevice(DEVICE);
        try (SrqConnection c = factory.getConnection()) {
            assertEquals(DEVICE, c.deviceName(), "getConnection works again without a redeploy");
        }
    }

    @Test
    void anIdlePooledConnectionWithAPeerIsReleasedOnDeviceRemovalOfThePeersCmId() throws Exception {
        try (Remote remote = new Remote()) {
            try (SrqConnection c = factory.getConnection()) {
                SrqPeer peer = c.connect(remote.listener.localAddress(), Duration.ofSeconds(5));
                assertTrue(peer != null);
            }
            awaitAccepted(remote, 1);
            long ms = removeAndTime();
            System.out.printf("device removal with an idle pooled connection with a peer: released in %d ms%n", ms);
            assertTrue(ms < 5_000, "released in " + ms + " ms");
            assertTrue(cm.events.contains("ERROR"));
            assertEquals(0, cm.all.size());
            SoftProvider.addDevice(DEVICE);
            try (SrqConnection c = factory.getConnection()) {
                c.connect(remote.listener.localAddress(), Duration.ofSeconds(5));
            }
            awaitAccepted(remote, 2); // a new peer after the device came back
            SoftProvider.addDevice(DEVICE);
            cm.flush();
        }
    }

    /** A remote rdma_cm listener on soft_rxe0 that accepts every connect onto a QP of its own. */
    private static final class Remote implements AutoCloseable {
        final Context ctx = Verbs.provider("soft").open("soft_rxe0");
        final ProtectionDomain pd = ctx.allocPd();
        final CompletionQueue cq = ctx.createCq(64, null);
        final CmListener listener = ctx.listen(new InetSocketAddress("10.0.0.4", 0), 16);
        final List<CmConnection> accepted = new CopyOnWriteArrayList<>();
        private volatile boolean running = true;
        private final Thread thread = Thread.ofPlatform().daemon().start(this::serve);

        Remote() throws io.rdma.srq.api.VerbsException {
        }

        private void serve() {
            while (running) {
                try {
                    var e = listener.nextEvent(Duration.ofMillis(10));
                    if (e.isPresent() && e.get().type() == io.rdma.srq.api.CmEventType.CONNECT_REQUEST) {
                        accepted.add(e.get().request().accept(pd.createQp(QpInitAttributes
                                .builder(QpInitAttributes.QpType.RC).cq(cq).maxSendWr(4).maxRecvWr(4).maxRecvSge(1)
                                .build())));
                    }
                } catch (RuntimeException ignored) {
                    // the next request
                }
            }
        }

        @Override
        public void close() throws Exception {
            running = false;
            thread.join();
            ctx.close();
        }
    }

    /** The passive side registers a connection a moment after the active side sees ESTABLISHED. */
    private static void awaitAccepted(Remote remote, int n) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (remote.accepted.size() < n && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        assertEquals(n, remote.accepted.size(), "connections the remote accepted");
    }
}
