package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.inbound.lifecycle.Backoff;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;

import io.rdma.srq.api.ActivationState;
import io.rdma.srq.api.SrqDeviceStateChanged;
import io.rdma.srq.ra.SrqResourceAdapter;
import io.rdma.srq.ra.management.ActivationView;
import io.rdma.srq.ra.management.Figure;
import io.rdma.srq.ra.management.StatisticsTable;
import io.rdma.srq.ra.testing.SoftSender;
import io.rdma.srq.ra.testing.TestBootstrapContext;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import io.rdma.srq.verbs.soft.SoftProvider;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.InvalidPropertyException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The activation's life on the soft device without a container: it comes up once a late device
 * appears, recovers from IBV_EVENT_DEVICE_FATAL, a port going down and up, and device removal
 * (rdma_cm DEVICE_REMOVAL, releasing every native object so the removal completes), stops at once
 * during a backoff, and still fails at once on a bad configuration. The activation runs on
 * soft_mlx5_0 (the device taken away); the senders are on soft_rxe0.
 */
class ActivationRecoveryTest {
    private static final String DEVICE = "soft_mlx5_0";
    private static final Duration WAIT = Duration.ofSeconds(20);
    private final SrqResourceAdapter ra = new SrqResourceAdapter();
    private final TestBootstrapContext bootstrap = new TestBootstrapContext();
    private final TestEndpointFactory endpoints = new TestEndpointFactory();
    private final List<SrqDeviceStateChanged> changes = new CopyOnWriteArrayList<>();
    private final List<SoftSender> senders = new ArrayList<>();
    private int liveBefore;
    private static int nextPort = 27_471;

    @BeforeEach
    void start() throws Exception {
        liveBefore = SoftProvider.liveObjects();
        ra.start(bootstrap);
        ra.setEventSink((event, loader) -> {
            if (event instanceof SrqDeviceStateChanged c) {
                changes.add(c);
            }
        });
    }

    @AfterEach
    void stop() throws Exception {
        SoftProvider.addDevice(DEVICE);
        SoftProvider.raisePortActive(DEVICE, 1);
        for (SoftSender s : senders) {
            s.close();
        }
        ra.stop();
        bootstrap.testWorkManager().shutdown();
        assertEquals(List.of(), endpoints.violations, "beforeDelivery/onReceive/afterDelivery strictly paired");
        assertEquals(endpoints.created.get(), endpoints.released.get(), "every endpoint released");
        assertEquals(liveBefore, SoftProvider.liveObjects(), "every native object freed");
        assertEquals(0, SoftProvider.openContexts(DEVICE));
    }

    private SrqActivationSpec spec(String... properties) throws Exception {
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setProvider("soft");
        spec.setSoftProfile("mlx5");
        spec.setListenAddress("10.77.1.2");
        spec.setListenPort(String.valueOf(nextPort++)); // fixed: senders come back to the same address
        spec.setSrqMaxWr("256");
        spec.setSrqLimit("16");
        spec.setBufferSize("64");
        spec.setRecoveryInitialDelay("10");
        spec.setRecoveryMaxDelay("200");
        spec.setResourceAdapter(ra);
        for (int i = 0; i < properties.length; i += 2) {
            String p = properties[i];
            SrqActivationSpec.class.getMethod("set" + Character.toUpperCase(p.charAt(0)) + p.substring(1), String.class)
                    .invoke(spec, properties[i + 1]);
        }
        return spec;
    }

    private SrqActivation activate(SrqActivationSpec spec) throws Exception {
        ra.endpointActivation(endpoints, spec);
        return ra.activations().getFirst();
    }

    private SoftSender sender(InetSocketAddress to) throws Exception {
        SoftSender s = new SoftSender(to, 64);
        senders.add(s);
        return s;
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        await(condition, () -> what);
    }

    private static void await(BooleanSupplier condition, java.util.function.Supplier<String> what)
            throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what.get());
            }
            Thread.sleep(2);
        }
    }

    /** Sends {@code count} messages numbered from {@code first} and waits for their completions. */
    private static void send(SoftSender s, long first, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            s.send(first + i, 64, null);
        }
        s.drain(WAIT);
    }

    private Set<Long> deliveredSequences() {
        Set<Long> seen = new HashSet<>();
        for (TestEndpointFactory.Received r : endpoints.received) {
            long seq = ByteBuffer.wrap(r.payload()).order(ByteOrder.nativeOrder()).getLong();
            assertTrue(seen.add(seq), "message " + seq + " delivered twice");
        }
        return seen;
    }

    private SrqDeviceStateChanged lossEvent() {
        return changes.stream().filter(c -> c.to() == ActivationState.RECOVERING).findFirst().orElseThrow();
    }

    private List<String> transitions() {
        return changes.stream().map(c -> c.from() + "->" + c.to()).toList();
    }

    private static long figure(ActivationView view, String name) {
        Figure<ActivationView> f = StatisticsTable.ACTIVATION.stream().filter(x -> x.name().equals(name)).findFirst()
                .orElseThrow();
        return f.number().applyAsLong(view);
    }

    @Test
    void deployedBeforeItsDeviceExistsItComesUpOnceTheDeviceAppearsAndDelivers() throws Exception {
        assertTrue(SoftProvider.removeDevice(DEVICE, Duration.ofSeconds(1)));
        SrqActivation a = activate(spec());
        assertEquals(ActivationState.STARTING, a.state(), "endpointActivation returned without the device");
        assertNull(a.listenAddress());
        assertFalse(a.deviceState().healthy());
        assertEquals(0, figure(ra.activationViews().getFirst(), "state"));
        await(() -> a.failedOpens() >= 3, "a few attempts failing with ENODEV meanwhile");
        assertEquals(ActivationState.STARTING, a.state());

        SoftProvider.addDevice(DEVICE);
        assertTrue(a.awaitState(ActivationState.ACTIVE, WAIT));
        await(() -> transitions().equals(List.of("STARTING->ACTIVE")), "the event of the activation coming up");
        assertEquals(DEVICE, a.deviceName());
        send(sender(a.listenAddress()), 0, 100);
        await(() -> endpoints.received.size() == 100, "100 deliveries");
        assertEquals(100, deliveredSequences().size());
        ActivationView view = ra.activationViews().getFirst();
        assertEquals(1, figure(view, "state"));
        assertEquals(0, figure(view, "recoveries"), "coming up late is not a recovery");
        assertEquals(1, figure(view, "healthy"));
    }

    @Test
    void deviceFatalMidStreamRecoversAndDeliversAgainWithCountsReconciled() throws Exception {
        SrqActivation a = activate(spec("maxConcurrency", "2"));
        // 0.2 ms a message: the SRQ fills and the sender waits on RNR, so the stream is still under way
        // when the device goes
        endpoints.behaviour(c -> LockSupport.parkNanos(200_000));
        InetSocketAddress at = a.listenAddress();
        SoftSender before = sender(at);
        CompletableFuture<Void> stream = CompletableFuture.runAsync(() -> {
            try {
                for (int i = 0; i < 5_000; i++) {
                    before.send(i, 64, null);
                }
                before.drain(WAIT);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        await(() -> endpoints.received.size() >= 500, "the stream under way");
        assertEquals(1, SoftProvider.raiseDeviceFatal(DEVICE));
        stream.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertTrue(a.awaitState(ActivationState.ACTIVE, WAIT), "recovered: " + a.state());
        await(() -> a.recoveries() == 1, "the recovery counted");

        long delivered = deliveredSequences().size();
        assertTrue(before.sendErrors > 0, "the stream outlived the old run: later sends failed");
        assertEquals(before.acknowledged, delivered + a.lostAtDeviceLoss(),
                "acknowledged = delivered + counted lost (" + before.acknowledged + " acked, " + delivered
                        + " delivered, " + a.lostAtDeviceLoss() + " lost)");
        assertEquals(before.acknowledged + before.sendErrors, 5_000);

        send(sender(at), 1_000_000, 200); // the same address listens again
        await(() -> endpoints.received.size() == delivered + 200, "deliveries after the recovery");
        assertEquals(delivered + 200, deliveredSequences().size(), "0 duplicates");
        // an endpoint records a message in onReceive; the poller counts it once the delivery has returned
        await(() -> ra.activationViews().getFirst().statistics().delivered() == delivered + 200,
                "counters span both runs");
        ActivationView view = ra.activationViews().getFirst();
        assertEquals(1, figure(view, "recoveries"));
        assertEquals(a.lostAtDeviceLoss(), figure(view, "lost-at-device-loss"));
        await(() -> transitions().equals(List.of("STARTING->ACTIVE", "ACTIVE->RECOVERING", "RECOVERING->ACTIVE")),
                () -> "three state events: " + transitions());
        assertEquals("EIO", lossEvent().errno().orElseThrow());
        assertTrue(lossEvent().cause().contains("IBV_EVENT_DEVICE_FATAL"));
    }

    @Test
    void aPortThatGoesDownRecoversWhenThePortIsActiveAgain() throws Exception {
        SrqActivation a = activate(spec());
        InetSocketAddress at = a.listenAddress();
        SoftSender before = sender(at);
        send(before, 0, 10);
        await(() -> endpoints.received.size() == 10, "deliveries before the outage");
        long objects = SoftProvider.liveObjects();
        SoftProvider.raisePortError(DEVICE, 1);
        assertTrue(a.awaitState(ActivationState.RECOVERING, WAIT));
        // a window in which nothing may happen: the run is kept (no open is attempted, nothing is freed)
        // until IBV_EVENT_PORT_ACTIVE; no event marks "it would have happened by now"
        Thread.sleep(300);
        assertEquals(0, a.failedOpens(), "no open attempted while the port is down: the run stays");
        assertEquals(ActivationState.RECOVERING, a.state());
        assertFalse(a.deviceState().healthy());
        assertEquals(2, figure(ra.activationViews().getFirst(), "state"));

        assertEquals(objects, SoftProvider.liveObjects(), "nothing freed during the outage (driver note 25)");
        assertEquals(at, a.listenAddress(), "the listener stays");

        SoftProvider.raisePortActive(DEVICE, 1);
        assertTrue(a.awaitState(ActivationState.ACTIVE, WAIT));
        assertEquals(1, a.recoveries(), "counted before ACTIVE was seen");
        send(before, 10, 20); // the connection made before the outage still delivers
        send(sender(at), 100, 50);
        await(() -> endpoints.received.size() == 80, "deliveries after the port came back");
        assertEquals("ENETDOWN", lossEvent().errno().orElseThrow());
        assertEquals(1, a.recoveries());
    }

    @Test
    void deviceRemovalReleasesEveryNativeObjectSoTheRemovalCompletesThenTheActivationComesBack() throws Exception {
        Acceptor remote = new Acceptor();
        SrqActivation a = activate(spec("connectTo", "10.0.0.3:" + remote.listener.localAddress().getPort(),
                "connectCount", "2", "reconnectInterval", "100"));
        InetSocketAddress at = a.listenAddress();
        SoftSender s = sender(at);
        send(s, 0, 100);
        // the remote's accept() returns after the activation's side is ESTABLISHED: wait for both sides
        await(() -> endpoints.received.size() == 100 && a.statistics().connections() == 3
                        && remote.accepted.size() == 2,
                () -> "100 deliveries; 1 sender + 2 connectTo connections, 2 accepted remotely: "
                        + endpoints.received.size() + ", " + a.statistics().connections() + ", "
                        + remote.accepted.size());

        long start = System.nanoTime();
        assertTrue(SoftProvider.removeDevice(DEVICE, Duration.ofSeconds(10)),
                "the removal completes: the activation closed every context of the device");
        long removalMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(0, SoftProvider.openContexts(DEVICE));
        assertEquals(0, SoftProvider.openContexts(DEVICE), "no object of the activation left on its device");
        assertTrue(a.state() == ActivationState.RECOVERING, "retrying while the device is absent: " + a.state());
        // what the removal waited for: one drain (the CQ stays empty 20 ms) and the freeing; the bound asserted is generous
        assertTrue(removalMs < 5_000, "removal took " + removalMs + " ms");
        System.out.printf("device removal: every native object released in %d ms%n", removalMs);

        SoftProvider.addDevice(DEVICE);
        assertTrue(a.awaitState(ActivationState.ACTIVE, WAIT));
        await(() -> a.statistics().connections() == 2 && remote.accepted.size() == 4,
                () -> "the connectTo connections established again: " + a.statistics().connections());
        send(sender(at), 1_000, 100);
        await(() -> endpoints.received.size() == 200, "deliveries after the device came back");
        assertEquals(200, deliveredSequences().size());
        assertEquals("ENODEV", lossEvent().errno().orElseThrow());
        assertTrue(lossEvent().cause().contains("RDMA_CM_EVENT_DEVICE_REMOVAL"));
        remote.close();
    }

    /** A remote rdma_cm listener on soft_rxe0 that accepts every connect onto a QP of its own and does nothing else. */
    private static final class Acceptor implements AutoCloseable {
        final io.rdma.srq.verbs.Context ctx = io.rdma.srq.verbs.Verbs.provider("soft").open("soft_rxe0");
        final io.rdma.srq.verbs.ProtectionDomain pd = ctx.allocPd();
        final io.rdma.srq.verbs.CompletionQueue cq = ctx.createCq(64, null);
        final io.rdma.srq.verbs.CmListener listener = ctx.listen(new InetSocketAddress("10.0.0.3", 0), 16);
        final List<io.rdma.srq.verbs.CmConnection> accepted = new CopyOnWriteArrayList<>();
        private volatile boolean running = true;
        private final Thread thread = Thread.ofPlatform().daemon().start(this::serve);

        Acceptor() throws io.rdma.srq.api.VerbsException {
        }

        private void serve() {
            while (running) {
                try {
                    var e = listener.nextEvent(Duration.ofMillis(10));
                    if (e.isPresent() && e.get().type() == io.rdma.srq.api.CmEventType.CONNECT_REQUEST) {
                        accepted.add(e.get().request().accept(pd.createQp(io.rdma.srq.verbs.QpInitAttributes
                                .builder(io.rdma.srq.verbs.QpInitAttributes.QpType.RC).cq(cq)
                                .maxSendWr(4).maxRecvWr(4).maxRecvSge(1).build())));
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

    @Test
    void aWildcardListenerWithoutConnectionsStillReleasesARemovedDevice() throws Exception {
        SrqActivation a = activate(spec("listenAddress", "0.0.0.0"));
        long start = System.nanoTime();
        assertTrue(SoftProvider.removeDevice(DEVICE, Duration.ofSeconds(10)),
                "no rdma_cm id of the activation is bound to the device; the device list tells it");
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        System.out.printf("device removal under a wildcard listener: every native object released in %d ms%n", ms);
        assertTrue(ms < 5_000, "removal took " + ms + " ms (the device list is read once a second)");
        assertTrue(lossEvent().cause().contains("no longer listed"), lossEvent().cause());
        SoftProvider.addDevice(DEVICE);
        assertTrue(a.awaitState(ActivationState.ACTIVE, WAIT));
    }

    @Test
    void whatTheDrainCannotDeliverAfterADeviceLossIsCountedLostAndLogged() throws Exception {
        endpoints.behaviour(c -> {
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        SrqActivation a = activate(spec("maxConcurrency", "1", "drainTimeout", "0", "maxBatchSize", "1"));
        SoftSender s = sender(a.listenAddress());
        for (int i = 0; i < 200; i++) {
            s.send(i, 64, null);
        }
        s.drain(WAIT);
        assertEquals(200, s.acknowledged, "all in the receiver's CQ");
        assertTrue(endpoints.received.size() < 150, "the endpoint is slow: a backlog waits in the CQ");
        SoftProvider.raiseDeviceFatal(DEVICE);
        assertTrue(a.awaitState(ActivationState.ACTIVE, WAIT));
        await(() -> a.lostAtDeviceLoss() > 0, "the backlog counted lost");
        long delivered = deliveredSequences().size();
        assertEquals(200, delivered + a.lostAtDeviceLoss(), "acknowledged = delivered + counted lost");
        assertEquals(0, a.statistics().undelivered(), "lost with the device, not undelivered at a deactivation");
        assertEquals(a.lostAtDeviceLoss(), figure(ra.activationViews().getFirst(), "lost-at-device-loss"));
    }

    @Test
    void stoppingDuringTheBackoffStopsAtOnce() throws Exception {
        assertTrue(SoftProvider.removeDevice(DEVICE, Duration.ofSeconds(1)));
        SrqActivation a = activate(spec("recoveryInitialDelay", "60000", "recoveryMaxDelay", "60000"));
        assertEquals(ActivationState.STARTING, a.state());
        long start = System.nanoTime();
        ra.endpointDeactivation(endpoints, null);
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(ActivationState.STOPPED, a.state());
        assertTrue(ms < 1_000, "deactivation in the middle of a 60 s backoff took " + ms + " ms");
        SoftProvider.addDevice(DEVICE);
        Thread.sleep(50);
        assertEquals(ActivationState.STOPPED, a.state(), "a stopped activation never opens");
        assertEquals(0, SoftProvider.openContexts(DEVICE));
    }

    @Test
    void aBadConfigurationStillFailsTheActivationAtOnceNamingTheProperty() throws Exception {
        ResourceException tooLarge = assertThrows(ResourceException.class,
                () -> ra.endpointActivation(endpoints, spec("srqMaxWr", "100000000", "cqSize", "100000000")));
        assertTrue(tooLarge.getMessage().contains("srqMaxWr"), tooLarge.getMessage());
        assertTrue(ra.activations().isEmpty());
        InvalidPropertyException backoff = assertThrows(InvalidPropertyException.class,
                () -> spec("recoveryInitialDelay", "500", "recoveryMaxDelay", "100").validate());
        assertTrue(backoff.getMessage().contains("recoveryMaxDelay"), backoff.getMessage());
        InvalidPropertyException initial = assertThrows(InvalidPropertyException.class,
                () -> spec("recoveryInitialDelay", "5").validate());
        assertTrue(initial.getMessage().contains("recoveryInitialDelay"), initial.getMessage());
    }

    @Test
    void backoffDoublesUpToItsMaximum() {
        Backoff b = new Backoff(Duration.ofMillis(100), Duration.ofMillis(1_000));
        assertEquals(List.of(100L, 200L, 400L, 800L, 1_000L, 1_000L), List.of(1, 2, 3, 4, 5, 6).stream()
                .map(i -> b.delay(i).toMillis()).toList());
        assertEquals(1_000, b.delay(Integer.MAX_VALUE).toMillis(), "no overflow");
    }
}
