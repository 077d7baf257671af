package io.rdma.srq.verbs.fabric;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.CompletionChannel;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.WorkCompletionArray;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The fabric provider's completion channel (ibv_get_cq_event(3)) on libfabric's tcp: its CQs'
 * member CQs are bound to a wait set (FI_WAIT_FD; on libfabric 1.x, where wait sets are not
 * deprecated), so a wait sleeps in fi_wait(3) and wakes when a message arrives — returning the armed
 * CQ — and an idle wait ends empty at its timeout.
 */
class LibfabricCompletionChannelTest {
    private static final Duration T = Duration.ofSeconds(10);

    @BeforeEach
    void libfabricInstalled() {
        assumeTrue(new FabricProvider().unavailableReason().isEmpty(), "libfabric with tcp MSG endpoints is not installed");
    }

    @Test
    void aWaitSleepsInTheWaitSetAndWakesForTheMessage() throws Exception {
        try (Context ctx = new FabricProvider().open("tcp");
             ReceiveWorkRequests wrs = new ReceiveWorkRequests(4);
             WorkCompletionArray wcs = new WorkCompletionArray(4)) {
            ProtectionDomain pd = ctx.allocPd();
            SharedReceiveQueue srq = pd.createSrq(new SrqAttributes(16, 1, 0));
            CompletionChannel channel = ctx.createCompletionChannel();
            int major = io.rdma.srq.verbs.ffi.fabric.Fabric.fi_version() >>> 16;
            if (major == 1) { // libfabric 2 deprecates wait sets: there the channel may poll instead, as tested below
                assertNotNull(((FabricCompletionChannel) channel).waitSet(), "libfabric 1.x's tcp opens an FI_WAIT_FD wait set");
            }
            CompletionQueue receives = ctx.createCq(64, channel);
            CompletionQueue sends = ctx.createCq(64, null);
            QueuePair server = pd.createQp(QpInitAttributes.rcOnSrq(receives, srq, 4));
            QueuePair client = pd.createQp(QpInitAttributes.rcOnSrq(sends, srq, 4));
            CmListener listener = ctx.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
            InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.localAddress().getPort());
            CompletableFuture<?> connecting = CompletableFuture.supplyAsync(() -> ctx.connect(client, at, T));
            CmEvent request = listener.nextEvent(T).orElseThrow();
            assertEquals(CmEventType.CONNECT_REQUEST, request.type());
            request.request().accept(server);
            connecting.join();
            MemoryRegion mr = pd.allocateRegistered(4096, EnumSet.of(AccessFlag.LOCAL_WRITE));
            wrs.set(0, 42, mr.address() + 2048, 64, mr.lkey());
            srq.postReceive(wrs, 1);

            receives.requestNotify(false);
            long t0 = System.nanoTime();
            assertTrue(channel.getCqEvent(Duration.ofMillis(200)).isEmpty(), "nothing arrived: the wait ends empty");
            assertTrue(System.nanoTime() - t0 >= 190_000_000L, "it waited its timeout");

            receives.requestNotify(false);
            CompletableFuture<Void> later = CompletableFuture.runAsync(() -> {
                try {
                    Thread.sleep(100);
                    client.postSend(7, mr, 0, 16, 99);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            long t1 = System.nanoTime();
            Optional<CompletionQueue> woken = channel.getCqEvent(T);
            long waited = System.nanoTime() - t1;
            later.join();
            assertSame(receives, woken.orElseThrow(), "the armed CQ whose endpoint got the message");
            assertTrue(waited >= 90_000_000L && waited < T.toNanos(), "woken by the message: " + waited / 1_000_000 + " ms");
            assertEquals(1, receives.poll(wcs));
            assertEquals(42, wcs.wrId(0));
            assertEquals(99, wcs.immData(0));
        }
    }

    /**
     * libfabric 1.17's ofi_cq_init puts a CQ bound to a wait set into the set's poll set before it
     * allocates the CQ's queue, and fi_wait reads every CQ of that poll set: a member CQ opened (or
     * closed) beside a waiter in fi_wait crashed the JVM (SIGSEGV reading the NULL queue, seen with
     * 8 connects at once). The provider opens and closes members only while no thread is in fi_wait
     * on the set; this opens and closes 20,000 members beside a waiter that never stops waiting.
     */
    @Test
    void memberCqsOpenAndCloseBesideAWaiterInFiWait() throws Exception {
        try (Context ctx = new FabricProvider().open("tcp")) {
            ProtectionDomain pd = ctx.allocPd();
            SharedReceiveQueue srq = pd.createSrq(new SrqAttributes(16, 1, 0));
            CompletionChannel channel = ctx.createCompletionChannel();
            FabricCompletionQueue cq = (FabricCompletionQueue) ctx.createCq(64, channel);
            FabricQueuePair qp = (FabricQueuePair) pd.createQp(QpInitAttributes.rcOnSrq(cq, srq, 4));
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.atomic.AtomicLong waits = new java.util.concurrent.atomic.AtomicLong();
            Thread waiter = Thread.ofPlatform().start(() -> {
                while (!stop.get()) {
                    cq.requestNotify(false);
                    channel.getCqEvent(Duration.ofMillis(2));
                    waits.incrementAndGet();
                }
            });
            try {
                for (int i = 0; i < 20_000; i++) {
                    cq.close(cq.open(qp, false, true));
                }
            } finally {
                stop.set(true);
                waiter.join();
            }
            assertTrue(waits.get() > 0, "the waiter waited beside the changes");
            qp.close();
            cq.close();
        }
    }
}
