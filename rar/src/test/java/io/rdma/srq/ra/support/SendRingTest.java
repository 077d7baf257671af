package io.rdma.srq.ra.support;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.WorkCompletionArray;
import io.rdma.srq.verbs.soft.SoftProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link SendRing} waiting for room, on the soft device: A's ring sends to B, whose SRQ starts empty,
 * so A's sends wait (RNR, rnr_retry 7) and the ring stays full until receives are posted. Waiters
 * must park without holding the ring's lock, all go on when completions come, all leave at once on
 * close, and the bound still ends in ETIMEDOUT; no message is lost or sent twice.
 */
class SendRingTest {
    private static final int DEPTH = 4;
    private static final int SLOT = 16;
    private static final int RECEIVES = 1023;

    private int liveBefore;
    private Context ctx;
    private ProtectionDomain pd;
    private SharedReceiveQueue srq;
    private CompletionQueue cqA;
    private CompletionQueue cqB;
    private QueuePair a;
    private MemoryRegion recvMr;
    private ReceiveWorkRequests chain;
    private WorkCompletionArray wcs;
    private long nextRecv;
    private final List<Thread> senders = new ArrayList<>();

    @BeforeEach
    void connect() throws VerbsException {
        liveBefore = SoftProvider.liveObjects();
        ctx = Verbs.provider(Verbs.SOFT).open("soft_rxe0");
        pd = ctx.allocPd();
        srq = pd.createSrq(new SrqAttributes(RECEIVES, 1, 0));
        cqA = ctx.createCq(2 * DEPTH, null);
        cqB = ctx.createCq(RECEIVES + 1, null);
        a = pd.createQp(QpInitAttributes.rcOnSrq(cqA, srq, DEPTH));
        QueuePair b = pd.createQp(QpInitAttributes.rcOnSrq(cqB, srq, DEPTH));
        a.connect(1, 0, b.localEndpoint(1, 0));
        b.connect(1, 0, a.localEndpoint(1, 0));
        recvMr = pd.allocateRegistered((long) RECEIVES * SLOT, EnumSet.of(AccessFlag.LOCAL_WRITE));
        chain = new ReceiveWorkRequests(RECEIVES);
        wcs = new WorkCompletionArray(64);
    }

    @AfterEach
    void close() throws Exception {
        for (Thread t : senders) {
            t.join(TimeUnit.SECONDS.toMillis(10));
        }
        ctx.close();
        chain.close();
        wcs.close();
        assertEquals(liveBefore, SoftProvider.liveObjects(), "every soft object freed");
    }

    private SendRing ring(Duration fullWait) throws VerbsException {
        return new SendRing(pd, a, cqA, SLOT, DEPTH, () -> "B", fullWait);
    }

    private static ByteBuffer message(int n) {
        return ByteBuffer.allocate(4).putInt(0, n);
    }

    private void postReceives(int n) throws VerbsException {
        for (int i = 0; i < n; i++) {
            long id = nextRecv++;
            chain.set(i, id, recvMr.address() + id * SLOT, SLOT, recvMr.lkey());
        }
        srq.postReceive(chain, n);
    }

    /** Fills the ring: DEPTH sends that wait for receives B does not have yet. */
    private void fill(SendRing r) throws VerbsException {
        for (int i = 0; i < DEPTH; i++) {
            r.post(message(-1 - i), -1 - i, "sendBufferSize");
        }
    }

    /** Starts {@code n} threads that each post {@code perThread} messages numbered t × 1000 + k. */
    private List<CompletableFuture<Void>> startSenders(SendRing r, int n, int perThread) {
        List<CompletableFuture<Void>> done = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            int id = t;
            CompletableFuture<Void> f = new CompletableFuture<>();
            Thread th = Thread.ofPlatform().name("sender-" + t).start(() -> {
                try {
                    for (int k = 0; k < perThread; k++) {
                        r.post(message(id * 1000 + k), id * 1000 + k, "sendBufferSize");
                    }
                    f.complete(null);
                } catch (Throwable e) {
                    f.completeExceptionally(e);
                }
            });
            senders.add(th);
            done.add(f);
        }
        return done;
    }

    /** Waits until every sender thread is parked (WAITING or TIMED_WAITING): none spins. */
    private void awaitAllParked() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            boolean parked = true;
            for (Thread t : senders) {
                Thread.State s = t.getState();
                parked &= s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING;
            }
            if (parked) {
                return;
            }
            if (System.nanoTime() > deadline) {
                fail("the waiting senders did not all park: " + senders.stream().map(Thread::getState).toList());
            }
            Thread.sleep(5);
        }
    }

    /** Fills the ring, then starts {@code n} senders of {@code perThread} messages and waits until all park. */
    private List<CompletableFuture<Void>> sendersWaitingOnAFullRing(SendRing r, int n, int perThread)
            throws Exception {
        fill(r);
        List<CompletableFuture<Void>> done = startSenders(r, n, perThread);
        awaitAllParked();
        return done;
    }

    /** {@return the numbers of {@code n} threads' {@code perThread} messages each} */
    private static Set<Integer> numbers(int n, int perThread) {
        Set<Integer> all = new HashSet<>();
        for (int t = 0; t < n; t++) {
            for (int k = 0; k < perThread; k++) {
                all.add(t * 1000 + k);
            }
        }
        return all;
    }

    /** B received every message of {@code expected} exactly once, and nothing else. */
    private void assertReceivedEachOnce(Set<Integer> expected) throws Exception {
        List<Integer> got = received(expected.size());
        assertEquals(expected.size(), new HashSet<>(got).size(), "a message arrived twice: " + got);
        assertEquals(expected, new HashSet<>(got), "every message arrives once");
        assertEquals(0, cqB.poll(wcs), "nothing more than was sent");
    }

    /** Takes {@code n} receive completions of B and returns their imm_data values. */
    private List<Integer> received(int n) throws Exception {
        List<Integer> imms = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (imms.size() < n) {
            int k = cqB.poll(wcs);
            for (int i = 0; i < k; i++) {
                assertTrue(wcs.isSuccess(i), "receive " + wcs.wrId(i) + ": " + wcs.status(i));
                int imm = wcs.immData(i);
                assertEquals(imm, recvMr.segment().get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(
                        java.nio.ByteOrder.BIG_ENDIAN), wcs.wrId(i) * SLOT), "payload and imm_data of one message");
                imms.add(imm);
            }
            if (k == 0) {
                if (System.nanoTime() > deadline) {
                    fail("received " + imms.size() + " of " + n + " messages");
                }
                Thread.sleep(1);
            }
        }
        return imms;
    }

    @Test
    void waitersParkWithoutTheLockAndAllGoOnWhenCompletionsCome() throws Exception {
        SendRing r = ring(SendRing.FULL_QUEUE_WAIT);
        List<CompletableFuture<Void>> done = sendersWaitingOnAFullRing(r, 8, 3);
        long sent = assertTimeoutPreemptively(Duration.ofSeconds(2), r::sent,
                "the ring's lock must be free while its senders wait for room");
        assertEquals(DEPTH, sent, "no waiter posted into the full ring");
        assertTrue(done.stream().noneMatch(CompletableFuture::isDone), "nobody returned before completions came");
        postReceives(DEPTH + 8 * 3);
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        r.flush(Duration.ofSeconds(10));
        assertEquals(DEPTH + 8 * 3, r.sent());
        Set<Integer> expected = numbers(8, 3);
        for (int i = 0; i < DEPTH; i++) {
            expected.add(-1 - i);
        }
        assertReceivedEachOnce(expected);
        r.close();
    }

    @Test
    void closeWakesEveryWaiterAtOnceWithEnotconn() throws Exception {
        SendRing r = ring(SendRing.FULL_QUEUE_WAIT);
        List<CompletableFuture<Void>> done = sendersWaitingOnAFullRing(r, 6, 1);
        r.close();
        for (CompletableFuture<Void> f : done) {
            // far below the 30 s full-queue wait: the close woke them, the bound did not
            ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(5, TimeUnit.SECONDS));
            VerbsException v = assertInstanceOf(VerbsException.class, e.getCause());
            assertEquals(Errno.ENOTCONN.name(), v.errnoName(), v.getMessage());
        }
        VerbsException later = assertThrows(VerbsException.class, () -> r.post(message(1), 1, "sendBufferSize"));
        assertEquals(Errno.ENOTCONN.name(), later.errnoName());
    }

    @Test
    void aRingThatStaysFullEndsInEtimedoutAfterItsBound() throws Exception {
        SendRing r = ring(Duration.ofMillis(200));
        fill(r);
        long start = System.nanoTime();
        VerbsException e = assertThrows(VerbsException.class, () -> r.post(message(1), 1, "sendBufferSize"));
        assertEquals(Errno.ETIMEDOUT.name(), e.errnoName(), e.getMessage());
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(200), "not before the bound");
        VerbsException f = assertThrows(VerbsException.class, () -> r.flush(Duration.ofMillis(100)));
        assertEquals(Errno.ETIMEDOUT.name(), f.errnoName(), f.getMessage());
        assertEquals(DEPTH, r.sent(), "the message that timed out was not posted");
        postReceives(DEPTH);
        r.flush(Duration.ofSeconds(10));
        assertEquals(DEPTH, received(DEPTH).size());
        r.close();
    }

    @Test
    void aPostWithItsOwnBoundWaitsForRoomNoLongerThanThatBound() throws Exception {
        SendRing r = ring(Duration.ofSeconds(30)); // the ring's own bound: far longer than a call's timeout
        fill(r);
        long start = System.nanoTime();
        VerbsException e = assertThrows(VerbsException.class,
                () -> r.post(message(1), 1, "sendBufferSize", Duration.ofMillis(100)));
        assertEquals(Errno.ETIMEDOUT.name(), e.errnoName(), e.getMessage());
        assertTrue(e.getMessage().contains("100 ms"), e.getMessage());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(30), "the call's bound, not the ring's");
        assertFalse(r.hasFailed(), "a full ring is not a failed one");
        postReceives(DEPTH);
        r.flush(Duration.ofSeconds(10));
        r.close();
    }

    @Test
    void manySendersThroughAFullRingLoseAndDuplicateNothing() throws Exception {
        postReceives(RECEIVES);
        SendRing r = ring(SendRing.FULL_QUEUE_WAIT);
        int threads = 4;
        int each = 250;
        List<CompletableFuture<Void>> done = startSenders(r, threads, each);
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        r.flush(Duration.ofSeconds(10));
        assertEquals((long) threads * each, r.sent());
        assertReceivedEachOnce(numbers(threads, each));
        r.close();
    }
}
