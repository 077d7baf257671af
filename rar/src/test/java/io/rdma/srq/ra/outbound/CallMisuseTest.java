package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.CallTimedOutException;
import io.rdma.srq.api.PeerUnavailableException;
import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqMessage;
import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.testing.SoftActivationTest;
import io.rdma.srq.ra.testing.SoftAdapterTest;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Calls used in ways the API forbids or that race with the caller's own thread: each ends at once,
 * with the error the API names, and leaves the pooled peer usable and nothing waiting or spinning.
 * (Found by a newcomer's trial of the adapter.)
 */
class CallMisuseTest extends SoftAdapterTest {
    private static final Duration T = Duration.ofSeconds(10);
    /** A request whose int at offset 2 is this is never answered. */
    private static final int NO_ANSWER = -1;

    private final TestEndpointFactory endpoints = new TestEndpointFactory();

    private SrqActivation activate() throws Exception {
        endpoints.recordPayloads(true);
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setProvider("soft");
        spec.setListenAddress("0.0.0.0");
        spec.setListenPort("0");
        spec.setSrqMaxWr("1024");
        spec.setSrqLimit("0");
        spec.setMaxConcurrency("4");
        spec.setResourceAdapter(ra);
        ra.endpointActivation(endpoints, spec);
        return ra.activations().getFirst();
    }

    private static InetSocketAddress at(SrqActivation a) {
        return new InetSocketAddress("10.0.0.1", a.listenAddress().getPort());
    }

    private static ByteBuffer request(int seq) {
        return ByteBuffer.allocate(6).putShort((short) 0).putInt(seq).flip();
    }

    private void answerAfter(long millis) {
        endpoints.behaviour(c -> {
            if (c.payload().remaining() >= 6 && c.payload().getInt(2) == NO_ANSWER) {
                return;
            }
            sleep(millis);
            TestEndpointFactory.echo(c);
        });
    }

    @Test
    void aTimeoutOnAPeerThatHasNotAnsweredYetEndsOnlyThatCall() throws Exception {
        answerAfter(300);
        SrqActivation a = activate();
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer peer = c.connect(at(a), T); // a new peer: it has not echoed a number yet
            CompletableFuture<SrqMessage> other = peer.callAsync(request(1), T);
            assertThrows(CallTimedOutException.class, () -> peer.call(request(NO_ANSWER), Duration.ofMillis(100)));
            assertEquals(1, other.get(5, TimeUnit.SECONDS).payload().getInt(2), "the other call got its own reply");
            assertEquals(2, peer.call(request(2), T).payload().getInt(2), "the QP stayed up");
        }
    }

    @Test
    void anUnansweredFirstCallDoesNotShiftTheAnswersOfTheNextOnes() throws Exception {
        answerAfter(0);
        SrqActivation a = activate();
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer peer = c.connect(at(a), T);
            assertThrows(CallTimedOutException.class, () -> peer.call(request(NO_ANSWER), Duration.ofMillis(50)));
            for (int i = 1; i <= 20; i++) {
                assertEquals(i, peer.call(request(i), T).payload().getInt(2));
            }
        }
    }

    @Test
    void aSendWithTheCallBitIsRefusedSoItCannotTakeACallersReply() throws Exception {
        answerAfter(200);
        SrqActivation a = activate();
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer peer = c.connect(at(a), T);
            CompletableFuture<SrqMessage> call = peer.callAsync(request(1), T);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> peer.send(ByteBuffer.wrap("EVIL".getBytes(StandardCharsets.US_ASCII)), 0x8000_0001));
            assertTrue(e.getMessage().contains("immData must be in 0..0x7FFFFFFF"), e.getMessage());
            assertEquals(6, call.get(5, TimeUnit.SECONDS).length(), "the call got its own reply");
        }
    }

    @Test
    void aNullRequestOrAnOutOfRangeTimeoutLeavesNothingWaiting() throws Exception {
        answerAfter(0);
        SrqActivation a = activate();
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer peer = c.connect(at(a), T);
            assertEquals("request", assertThrows(NullPointerException.class, () -> peer.callAsync(null, T)).getMessage());
            assertThrows(NullPointerException.class, () -> peer.call(null, T));
            Duration huge = Duration.ofSeconds(Long.MAX_VALUE);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> peer.callAsync(request(1), huge));
            assertTrue(e.getMessage().contains("at most 365 days"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> peer.call(request(1), huge));
            assertThrows(IllegalArgumentException.class, () -> peer.receive(Duration.ofMillis(-1)));
            assertEquals(0, mcf.receiveService().waiting(), "no call left for the servicing loop to spin for");
            assertEquals(0, endpoints.received.size(), "nothing was sent");
            assertEquals(1, peer.call(request(1), T).payload().getInt(2));
        }
    }

    @Test
    void anInterruptedCallerEndsAtOnceWithEintrInsteadOfSpinningUntilItsTimeout() throws Exception {
        answerAfter(0);
        SrqActivation a = activate();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer peer = c.connect(at(a), T);
            AtomicLong cpuNanos = new AtomicLong();
            AtomicReference<Boolean> stillInterrupted = new AtomicReference<>();
            Throwable failure = endOfAWaitDisturbedBy(() -> {
                long cpu0 = threads.getCurrentThreadCpuTime();
                try {
                    peer.call(request(NO_ANSWER), Duration.ofSeconds(20));
                } finally {
                    stillInterrupted.set(Thread.currentThread().isInterrupted());
                    cpuNanos.set(threads.getCurrentThreadCpuTime() - cpu0);
                }
            }, Thread::interrupt);
            CallTimedOutException e = assertInstanceOf(CallTimedOutException.class, failure);
            assertEquals("EINTR", e.errnoName());
            assertTrue(stillInterrupted.get(), "the interrupt status stays set");
            assertTrue(cpuNanos.get() < TimeUnit.MILLISECONDS.toNanos(1_000), "no busy wait: " + cpuNanos.get() + " ns");
            assertEquals(1, peer.call(request(1), T).payload().getInt(2), "the peer stays usable");
        }
    }

    @Test
    void aWaitingReceiveEndsWithEnotconnWhenItsHandleCloses() throws Exception {
        answerAfter(0);
        SrqActivation a = activate();
        SrqConnection c = factory.getConnection();
        SrqPeer peer = c.connect(at(a), T);
        Throwable failure = endOfAWaitDisturbedBy(() -> peer.receive(Duration.ofSeconds(20)), t -> c.close());
        PeerUnavailableException e = assertInstanceOf(PeerUnavailableException.class, failure);
        assertEquals("ENOTCONN", e.errnoName());
    }

    /**
     * Starts {@code wait} (a call or receive with a 20 s timeout) on a thread of its own, disturbs
     * that thread 100 ms later, and checks that the wait ended within 2 s of it.
     *
     * @return what the wait threw (null if nothing)
     */
    private static Throwable endOfAWaitDisturbedBy(Runnable wait, java.util.function.Consumer<Thread> disturb)
            throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread waiter = Thread.ofPlatform().start(() -> {
            try {
                wait.run();
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        SoftActivationTest.await(() -> waiter.getState() == Thread.State.WAITING
                || waiter.getState() == Thread.State.TIMED_WAITING, "the waiter parked in its wait");
        long t0 = System.nanoTime();
        disturb.accept(waiter);
        waiter.join(5_000);
        assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(2), "the wait ended at once, not at its 20 s timeout");
        return failure.get();
    }

    @Test
    void unsolicitedMessagesNobodyTookAreDiscardedAndCountedNotHandedToTheNextUser() throws Exception {
        endpoints.behaviour(m -> {
            try {
                m.reply(ByteBuffer.wrap("secret-of-user-1".getBytes(StandardCharsets.US_ASCII)), 7);
            } catch (io.rdma.srq.api.VerbsException e) {
                throw new IllegalStateException(e);
            }
        });
        SrqActivation a = activate();
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer peer = c.connect(at(a), T);
            peer.send(request(1), 1);
            SoftActivationTest.await(() -> endpoints.received.size() == 1, "the message delivered");
            SrqManagedConnection mc = (SrqManagedConnection) cm.all.iterator().next();
            SoftActivationTest.await(() -> mc.queuedUnsolicited() == 1, "the unsolicited answer in the peer's queue");
        }
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer peer = c.connect(at(a), T);
            assertTrue(peer.receive(Duration.ofMillis(200)).isEmpty(), "the next user does not get the first one's message");
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
