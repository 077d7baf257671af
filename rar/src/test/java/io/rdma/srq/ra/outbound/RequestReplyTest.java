package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.CallTimedOutException;
import io.rdma.srq.api.MessageTooLargeException;
import io.rdma.srq.api.PeerUnavailableException;
import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqMessage;
import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.support.SpinBudget;
import io.rdma.srq.ra.testing.ConcurrentCallers;
import io.rdma.srq.ra.testing.SoftAdapterTest;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Request/reply from pooled connections to an activation of this adapter whose listener answers
 * with {@link ReceiveCompletion#reply} (which echoes the request's imm_data), on the soft device,
 * container-less. The activation listens on the wildcard address, so peers to 10.0.x.y:port are
 * distinct peers of one listener.
 *
 * <p>The many-callers test makes {@code -Dsrq.test.calls} calls in all (default 50,000, about
 * 5 s on a quiet 2-core machine; the million of the issue: {@code -Dsrq.test.calls=1000000}).
 */
class RequestReplyTest extends SoftAdapterTest {
    private static final Duration T = Duration.ofSeconds(10);
    private static final long CALLS = Long.getLong("srq.test.calls", 50_000);

    private final TestEndpointFactory endpoints = new TestEndpointFactory();

    private SrqActivation activate() throws Exception {
        return activate("4096");
    }

    private SrqActivation activate(String bufferSize) throws Exception {
        endpoints.recordPayloads(false);
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setBufferSize(bufferSize);
        spec.setProvider("soft");
        spec.setListenAddress("0.0.0.0");
        spec.setListenPort("0");
        spec.setSrqMaxWr("1024");
        spec.setSrqLimit("0");
        spec.setMaxConcurrency("2");
        spec.setResourceAdapter(ra);
        ra.endpointActivation(endpoints, spec);
        return ra.activations().getFirst();
    }

    private static InetSocketAddress at(SrqActivation a, int host) {
        return new InetSocketAddress("10.0." + (host >> 8) + "." + (host & 0xFF), a.listenAddress().getPort());
    }

    private static ByteBuffer request(int caller, int seq) {
        // 6 bytes: below the 8 the test endpoint records as a sequence, so a long run keeps no per-call state
        return ByteBuffer.allocate(6).putShort((short) caller).putInt(seq).flip();
    }

    private static SrqManagedConnection onlyPooled(Iterable<?> all) {
        return (SrqManagedConnection) all.iterator().next();
    }

    @Test
    void eightThreadsOverEightPeersEachGetExactlyTheirOwnReplies() throws Exception {
        endpoints.behaviour(TestEndpointFactory::echo);
        SrqActivation a = activate();
        int threads = 8;
        long perThread = CALLS / threads;
        try (SrqConnection c = factory.getConnection()) {
            List<SrqPeer> peers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                peers.add(c.connect(at(a, i + 1), T));
            }
            ConcurrentCallers run = ConcurrentCallers.run(peers, threads, perThread, T);
            SrqManagedConnection mc = onlyPooled(cm.all);
            assertEquals(null, run.failure());
            assertEquals(0, run.wrong(), "every caller got exactly its own reply");
            assertEquals(threads, mc.peerCount());
            assertEquals(0, mc.lateReplies());
            // a delivery is counted after its listener returned, a moment after the caller had the reply
            waitUntil(() -> a.statistics().delivered() == perThread * threads);
            assertEquals(perThread * threads, a.statistics().delivered());
            assertEquals(1024L * 4096, mc.registeredReceiveBytes(),
                    "one slab for 8 peers: the SRQ 'default', srqMaxWr 1024 (not rxe's rounded 2047) × receiveBufferSize 4096");
        }
    }

    @Test
    void eightCallersOnOnePeerShareItsSrqAndCqAndEachGetsItsOwnReply() throws Exception {
        endpoints.behaviour(TestEndpointFactory::echo);
        SrqActivation a = activate();
        AtomicLong wrong = new AtomicLong();
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer peer = c.connect(at(a, 1), T);
            List<Thread> callers = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int caller = t;
                callers.add(Thread.ofPlatform().start(() -> {
                    for (int i = 0; i < 2_000; i++) {
                        SrqMessage r = peer.call(request(caller, i), T);
                        if (r.payload().getShort(0) != caller || r.payload().getInt(2) != i) {
                            wrong.incrementAndGet();
                        }
                    }
                }));
            }
            for (Thread t : callers) {
                t.join();
            }
            assertEquals(0, wrong.get());
        }
    }

    @Test
    void aLateReplyAfterATimeoutIsDiscardedAndCountedAndThePooledPeerIsReused() throws Exception {
        endpoints.behaviour(c -> {
            if (c.payload().getInt(2) == -1) {
                sleep(300); // answers after the caller gave up
            }
            TestEndpointFactory.echo(c);
        });
        SrqActivation a = activate();
        SrqPeer first;
        try (SrqConnection c = factory.getConnection()) {
            first = c.connect(at(a, 1), T);
            assertEquals(1, first.call(request(0, 1), T).payload().getInt(2), "the peer echoes, so it is matched by number");
            CallTimedOutException e = assertThrows(CallTimedOutException.class,
                    () -> first.call(request(0, -1), Duration.ofMillis(50)));
            assertEquals("ETIMEDOUT", e.errnoName());
            assertTrue(e.getMessage().contains(at(a, 1).toString()), e.getMessage());
        }
        try (SrqConnection c = factory.getConnection()) {
            SrqManagedConnection mc = onlyPooled(cm.all);
            assertEquals(1, cm.all.size(), "the pooled connection was reused");
            SrqPeer again = c.connect(at(a, 1), T);
            long sent = again.sent();
            assertEquals(2, sent, "the same QP: it has sent both requests of the first handle");
            SrqMessage r = again.call(request(1, 2), T); // sent while the late reply may still be in flight
            assertEquals(1, r.payload().getShort(0));
            assertEquals(2, r.payload().getInt(2), "the next user's call got its own reply, never the late one");
            waitUntil(() -> mc.lateReplies() == 1);
            assertEquals(1, mc.lateReplies(), "the late reply was discarded and counted");
            assertEquals(1, mc.peerCount());
        }
    }

    @Test
    void closingTheHandleEndsItsWaitingCallsWithEnotconnOnAnotherThreadAndTheLateReplyLandsInThePooledSlab()
            throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        endpoints.behaviour(c -> {
            await(hold);
            TestEndpointFactory.echo(c);
        });
        SrqActivation a = activate();
        SrqConnection c = factory.getConnection();
        c.registerMemory(1 << 20, EnumSet.of(AccessFlag.LOCAL_WRITE)); // the application's: freed at close
        SrqPeer peer = c.connect(at(a, 1), T);
        CompletableFuture<SrqMessage> call = peer.callAsync(request(0, 1), T);
        AtomicReference<Thread> completedOn = new AtomicReference<>();
        CompletableFuture<SrqMessage> seen = call.whenComplete((r, e) -> completedOn.set(Thread.currentThread()));
        long start = System.nanoTime();
        c.close();
        ExecutionException e = assertThrows(ExecutionException.class, () -> seen.get(2, TimeUnit.SECONDS));
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(2), "at once, not after the 10 s timeout");
        PeerUnavailableException gone = assertInstanceOf(PeerUnavailableException.class, e.getCause());
        assertEquals("ENOTCONN", gone.errnoName());
        assertNotEquals(Thread.currentThread(), completedOn.get(), "not on the closing caller's thread");
        assertFalse(completedOn.get().getName().startsWith("srq-outbound"), "not on the adapter's poller");
        SrqManagedConnection mc = onlyPooled(cm.all);
        hold.countDown(); // the reply now arrives into the pooled SRQ, whose slab outlives every handle
        waitUntil(() -> mc.lateReplies() == 1);
        assertEquals(1, mc.lateReplies());
        try (SrqConnection next = factory.getConnection()) {
            assertEquals(7, next.connect(at(a, 1), T).call(request(0, 7), T).payload().getInt(2));
        }
    }

    @Test
    void twoHundredFiftySixPeersOnOnePooledSrqKeepRegisteredReceiveMemoryConstant() throws Exception {
        endpoints.behaviour(TestEndpointFactory::echo);
        SrqActivation a = activate();
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer one = c.connect(at(a, 1), T);
            assertEquals(1, one.call(request(1, 1), T).payload().getInt(2));
            SrqManagedConnection mc = onlyPooled(cm.all);
            long slab = mc.registeredReceiveBytes();
            List<SrqPeer> peers = new ArrayList<>(List.of(one));
            for (int i = 2; i <= 256; i++) {
                peers.add(c.connect(at(a, i), T));
            }
            for (int i = 0; i < peers.size(); i++) {
                assertEquals(i, peers.get(i).call(request(i, i), T).payload().getInt(2));
            }
            assertEquals(256, mc.peerCount());
            assertEquals(slab, mc.registeredReceiveBytes(), "one slab for 1 or 256 peers");
            assertSame(one.remoteAddress(), c.connect(at(a, 1), T).remoteAddress(), "matched, not reconnected");
            assertEquals(256, mc.peerCount());
        }
    }

    @Test
    void aReplyLongerThanTheReceiveBufferFailsThePeerWithEioAndTheNextConnectReestablishesIt() throws Exception {
        mcf.setReceiveBufferSize("64");
        endpoints.behaviour(c -> {
            try {
                c.reply(ByteBuffer.allocate(c.payload().getInt(2) == 1 ? 128 : 6).putShort(0, (short) 9));
            } catch (VerbsException e) {
                throw new IllegalStateException(e);
            }
        });
        SrqActivation a = activate();
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer peer = c.connect(at(a, 1), T);
            PeerUnavailableException e = assertThrows(PeerUnavailableException.class, () -> peer.call(request(0, 1), T));
            assertEquals("EIO", e.errnoName());
            SrqManagedConnection mc = onlyPooled(cm.all);
            assertEquals(1, mc.peerErrors(), "counted");
            assertEquals("EIO", assertThrows(PeerUnavailableException.class, () -> peer.call(request(0, 2), T)).errnoName(),
                    "the failed peer refuses calls until it is re-established");
            SrqPeer again = c.connect(at(a, 1), T);
            assertEquals(9, again.call(request(0, 2), T).payload().getShort(0), "re-established on the next connect");
            assertThrows(MessageTooLargeException.class, () -> again.call(ByteBuffer.allocate(4097), T));
        }
    }

    @Test
    void aPeerThatDisconnectsDuringACallFailsItWithEnotconnAtOnce() throws Exception {
        endpoints.behaviour(c -> { }); // never answers
        SrqActivation a = activate();
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer peer = c.connect(at(a, 1), T);
            CompletableFuture<SrqMessage> call = peer.callAsync(request(0, 1), T);
            waitUntil(() -> a.statistics().delivered() == 1);
            long start = System.nanoTime();
            ra.endpointDeactivation(endpoints, null);
            ExecutionException e = assertThrows(ExecutionException.class, () -> call.get(5, TimeUnit.SECONDS));
            assertEquals("ENOTCONN", assertInstanceOf(PeerUnavailableException.class, e.getCause()).errnoName());
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5));
            VerbsException send = assertThrows(VerbsException.class, () -> peer.send(request(0, 2)));
            assertEquals("ENOTCONN", send.errnoName(), "a send to a peer known gone fails at once, not at flush");
            assertThrows(NullPointerException.class, () -> c.connect((java.net.InetSocketAddress) null, T));
        }
    }

    @Test
    void aReplyThePeerSentJustBeforeItDisconnectedStillCompletesTheCall() throws Exception {
        // rdma_server's pattern: reply, then rdma_disconnect at once. The reply's receive completion
        // is on the caller's CQ before the DISCONNECTED event, so the call gets it, every time.
        for (int round = 0; round < 20; round++) {
            CountDownLatch replied = new CountDownLatch(1);
            endpoints.behaviour(c -> {
                TestEndpointFactory.echo(c);
                replied.countDown();
            });
            SrqActivation a = activate();
            try (SrqConnection c = factory.getConnection()) {
                SrqPeer peer = c.connect(at(a, 1), T);
                CompletableFuture<SrqMessage> call = peer.callAsync(request(0, round), T);
                await(replied);
                ra.endpointDeactivation(endpoints, null); // disconnects the peer right after its reply
                assertEquals(round, call.get(5, TimeUnit.SECONDS).payload().getInt(2), "round " + round);
            }
        }
    }

    @Test
    void aSendThatCompletedInErrorRetiresThePooledPeerAndTheNextConnectReestablishesIt() throws Exception {
        endpoints.behaviour(TestEndpointFactory::echo);
        SrqActivation a = activate("1024"); // the activation's receive buffers: 1024 bytes
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer peer = c.connect(at(a, 1), T);
            peer.send(ByteBuffer.allocate(2000), 1); // longer than the receiver's buffer: REM_OP_ERR, QP in error
            VerbsException e = assertThrows(VerbsException.class, () -> peer.flush(T));
            assertEquals("EIO", e.errnoName());
            SrqPeer again = c.connect(at(a, 1), T);
            assertEquals(3, again.call(request(0, 3), T).payload().getInt(2), "a new QP, not the one in error");
        }
        waitUntil(() -> a.statistics().connections() == 1);
        assertEquals(1, a.statistics().connections(), "the activation let the failed connection go");
    }

    @Test
    void messagesThePeerSendsOnItsOwnAreReceivedNotTakenForReplies() throws Exception {
        endpoints.behaviour(c -> {
            try {
                c.reply(ByteBuffer.wrap(new byte[] {42}), 7); // imm_data 7: high bit clear, not a call's number
                TestEndpointFactory.echo(c);
            } catch (VerbsException e) {
                throw new IllegalStateException(e);
            }
        });
        SrqActivation a = activate();
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer peer = c.connect(at(a, 1), T);
            assertEquals(5, peer.call(request(0, 5), T).payload().getInt(2), "the call got the echo, not the 1-byte message");
            SrqMessage own = peer.receive(T).orElseThrow();
            assertArrayEquals(new byte[] {42}, own.copyPayload());
            assertEquals(7, own.immData());
            assertTrue(peer.receive(Duration.ZERO).isEmpty());
        }
    }

    @Test
    void theLimitEventRefillsAndRearmsAPooledSrqAndFiresSrqLimitReachedNamingIt() throws Exception {
        List<io.rdma.srq.api.SrqLimitReached> fired = new java.util.concurrent.CopyOnWriteArrayList<>();
        ra.setEventSink((event, loader) -> { if (event instanceof io.rdma.srq.api.SrqLimitReached e) fired.add(e); });
        endpoints.behaviour(TestEndpointFactory::echo);
        SrqActivation a = activate();
        try (SrqConnection c = factory.getConnection()) {
            io.rdma.srq.api.SrqHandle tiny = c.openSrq("tiny", new io.rdma.srq.api.SrqAttributes(24, 1, 12)); // rxe: max_wr 31, 24 buffers
            SrqPeer peer = c.connect(at(a, 1), "tiny", T);
            SrqManagedConnection mc = onlyPooled(cm.all);
            PooledSrq pooled = mc.srq("tiny", new io.rdma.srq.api.SrqAttributes(24, 1, 12));
            List<CompletableFuture<SrqMessage>> calls = new ArrayList<>();
            synchronized (pooled) { // holds the servicing loop off this SRQ: its receives are consumed, not reposted
                for (int i = 0; i < 20; i++) {
                    calls.add(peer.callAsync(request(0, i), T));
                }
                waitUntil(() -> a.statistics().delivered() == 20);
                Thread.sleep(50); // the replies land: 4 of 24 receives left, below srq_limit 12
            }
            for (int i = 0; i < 20; i++) {
                assertEquals(i, calls.get(i).get(10, TimeUnit.SECONDS).payload().getInt(2));
            }
            waitUntil(() -> !fired.isEmpty() && pooled.outstanding() == 24);
            assertEquals(1, fired.size(), "one SrqLimitReached: " + fired);
            assertEquals("tiny", fired.getFirst().srqName());
            assertEquals("soft_rxe0", fired.getFirst().device());
            assertEquals(12, fired.getFirst().limit());
            assertEquals(12, tiny.srqLimit(), "re-armed");
            assertEquals(24, pooled.outstanding(), "refilled: every buffer posted again");
            assertTrue(mc.limitEvents() >= 1);
        }
    }

    @Test
    void anIdlePooledConnectionStillDrainsItsCqAndKeepsItsSrqFull() throws Exception {
        endpoints.behaviour(TestEndpointFactory::echo);
        SrqActivation a = activate();
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer peer = c.connect(at(a, 1), T);
            for (int i = 0; i < 100; i++) {
                peer.send(request(0, i), i); // not calls: the echoes (imm_data i, high bit clear) are unsolicited
            }
            peer.flush(T);
        } // the pooled connection is idle in the pool from here on; nobody calls or receives
        SrqManagedConnection mc = onlyPooled(cm.all);
        waitUntil(() -> a.statistics().delivered() == 100 && mc.outstandingReceives() == 1024
                && mc.droppedUnsolicited() + mc.queuedUnsolicited() == 100); // the echoes all came back
        assertEquals(1024, mc.outstandingReceives(), "the servicing loop drained the idle connection's CQ and reposted");
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer peer = c.connect(at(a, 1), T);
            assertTrue(peer.receive(Duration.ZERO).isEmpty(), "the first user's unsolicited messages are not the next user's");
            assertEquals(100, mc.droppedUnsolicited(), "all 100 discarded and counted");
        }
    }

    @Test
    void theServicingLoopPollsOnlyForCallsNoCallerPollsForAndNoWaitOrSpinSlotIsLeftCounted() throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        endpoints.behaviour(c -> {
            if (c.payload().getInt(2) < 0) {
                await(hold);
            }
            TestEndpointFactory.echo(c);
        });
        SrqActivation a = activate();
        ReceiveService loop = mcf.receiveService();
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer peer = c.connect(at(a, 1), T);
            for (int i = 0; i < 1000; i++) {
                assertEquals(i, peer.call(request(0, i), T).payload().getInt(2));
            }
            assertEquals(0, loop.waiting(), "a synchronous call that returned is not counted with the loop");

            CompletableFuture<SrqMessage> held = peer.callAsync(request(0, -1), T);
            assertEquals(1, loop.waiting(), "no thread waits for an asynchronous call: the loop polls for it");
            hold.countDown();
            assertEquals(-1, held.get(10, TimeUnit.SECONDS).payload().getInt(2));
            waitUntil(() -> loop.waiting() == 0);
            assertEquals(0, loop.waiting(), "the asynchronous call ended");

            CountDownLatch second = new CountDownLatch(1);
            endpoints.behaviour(r -> {
                await(second);
                TestEndpointFactory.echo(r);
            });
            AtomicReference<SrqMessage> reply = new AtomicReference<>();
            Thread caller = Thread.ofPlatform().start(() -> reply.set(peer.call(request(1, 5), T)));
            waitUntil(() -> loop.waiting() == 1);
            assertEquals(1, loop.waiting(), "a caller that spun and parked is polled for by the loop");
            second.countDown();
            caller.join(10_000);
            assertEquals(5, reply.get().payload().getInt(2), "the loop's poll woke the parked caller with its reply");
            assertEquals(0, loop.waiting());

            endpoints.behaviour(r -> sleep(200));
            assertThrows(CallTimedOutException.class, () -> peer.call(request(2, 6), Duration.ofMillis(50)));
            assertEquals(0, loop.waiting(), "a timed-out call is not counted any more");
        }
        waitUntil(() -> SpinBudget.PROCESS.spinning() == 0);
        assertEquals(0, SpinBudget.PROCESS.spinning(), "every spin slot was given back (callers, poller, loop)");
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
