package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.inbound.delivery.Poller;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;

import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.ra.testing.SoftActivationTest;
import io.rdma.srq.ra.testing.SoftSender;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ordering=connection under overload, on the soft device: a connection merely slower than its sender
 * — the only one, or one of several, or a new peer among them — is back-pressured (its completions
 * wait in the CQ, the SRQ empties, its sender waits out RNR), never copied out or disconnected, and
 * everything it sent is delivered in order; only a stalled connection is disconnected. srqMaxWr 256
 * gives the default maxHeldPerConnection of 32, one poll of the CQ.
 */
class ConnectionBackpressureTest extends SoftActivationTest {
    /** Sequence numbers at or above this mark the stuck connection's messages. */
    private static final long STUCK = 1_000_000_000L;

    private final ConnectionOrder order = new ConnectionOrder();

    @Test
    void aLoneFloodingConnectionIsBackPressuredNeverDisconnected() throws Exception {
        SrqActivation a = activate("srqMaxWr", "256", "srqLimit", "0", "bufferSize", "64", "maxConcurrency", "4",
                "ordering", "connection");
        CountDownLatch gate = new CountDownLatch(1);
        endpoints.behaviour(c -> order.record(c, () -> {
            if (ConnectionOrder.seq(c) == 0) {
                awaitQuietly(gate); // its MDB is slow to start: everything else it sends waits
            }
            LockSupport.parkNanos(100_000);
        }));
        SoftSender flood = sender(a, 64);
        int first = 300; // more than the SRQ's 256 buffers, fewer than 256 + the sender's 64 in flight
        for (int i = 0; i < first; i++) {
            flood.send(i, 64, null);
        }
        int fill = a.statistics().fill();
        reapUntil(flood, () -> flood.acknowledged >= fill || a.statistics().slowDisconnects() > 0,
                "every posted receive consumed: the SRQ empty, the rest of the sends waiting out RNR");
        ActivationStatistics held = a.statistics();
        assertEquals(0, held.slowDisconnects(), "a lone connection is back-pressured, never disconnected");
        assertEquals(0, held.copiedOut(), "nothing copied out");
        assertTrue(held.completed() <= 1 + 32 + Poller.BATCH, "completions stay in the CQ: " + held.completed()
                + " taken, at most its batch in delivery and its maxHeldPerConnection waiting");

        gate.countDown();
        int total = 2000;
        for (int i = first; i < total; i++) {
            flood.send(i, 64, null);
        }
        flood.drain(Duration.ofSeconds(30));
        assertEquals(0, flood.sendErrors);
        assertEquals(total, flood.acknowledged);
        await(() -> a.statistics().delivered() == total, "everything delivered");
        assertEquals(List.of(), order.violations);
        assertEquals(1, order.byConnection().size());
        ActivationStatistics st = a.statistics();
        assertEquals(0, st.slowDisconnects());
        assertEquals(0, st.copiedOut());
    }

    @Test
    void inAMixedLoadOnlyTheStalledConnectionIsDisconnectedNeverANewPeer() throws Exception {
        SrqActivation a = activate("srqMaxWr", "256", "srqLimit", "0", "bufferSize", "64", "maxConcurrency", "4",
                "ordering", "connection");
        CountDownLatch gate = new CountDownLatch(1);
        // every connection's MDB work is slower than its sender (1 ms a message), one connection's is stuck
        endpoints.behaviour(c -> order.record(c, () -> {
            if (ConnectionOrder.seq(c) >= STUCK) {
                awaitQuietly(gate);
            }
            LockSupport.parkNanos(1_000_000);
        }));
        int perSender = 300;
        List<SoftSender> flooders = new ArrayList<>();
        List<Thread> sending = new ArrayList<>();
        for (int s = 1; s <= 3; s++) {
            SoftSender f = sender(a, 64);
            flooders.add(f);
            sending.add(sendAll(f, s * 1_000_000L, perSender));
        }
        await(() -> order.delivered(first -> first < STUCK) >= 64, "the flooders under way");
        SoftSender stuck = sender(a, 64);
        Thread stuckSending = sendAll(stuck, STUCK, 200);
        await(() -> order.delivered(first -> first >= STUCK) == 1, "the stuck connection's first in delivery");
        SoftSender newPeer = sender(a, 64);
        sending.add(sendAll(newPeer, 5_000_000L, perSender));
        for (Thread t : sending) {
            t.join(TimeUnit.SECONDS.toMillis(60));
            assertTrue(!t.isAlive(), t.getName() + " sent everything");
        }
        assertEquals(0, newPeer.sendErrors, "the new peer is never disconnected");
        assertEquals(perSender, newPeer.acknowledged);
        for (SoftSender f : flooders) {
            assertEquals(0, f.sendErrors, "a flooding connection is back-pressured, not disconnected");
            assertEquals(perSender, f.acknowledged);
        }
        await(() -> order.delivered(first -> first < STUCK) == 4L * perSender, "the flooders' and the new peer's "
                + "messages, while the stuck connection is stuck");
        await(() -> a.statistics().slowDisconnects() == 1, "the stuck connection disconnected");
        stuckSending.join(TimeUnit.SECONDS.toMillis(60));

        gate.countDown();
        await(() -> order.delivered(first -> first >= STUCK) == stuck.acknowledged,
                "everything acknowledged to the stuck connection delivered");
        assertEquals(List.of(), order.violations);
        await(() -> a.statistics().delivered() == 4L * perSender + stuck.acknowledged, "every delivery returned");
        assertEquals(1, a.statistics().slowDisconnects());
    }

    /** Reaps {@code s}'s send completions until {@code condition} holds, at most {@link #PATIENCE}. */
    private static void reapUntil(SoftSender s, BooleanSupplier condition, String what) throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            s.drain(Duration.ofMillis(5));
        }
    }

    /** Sends {@code count} messages from {@code base} on a thread of its own, then waits for their completions. */
    private static Thread sendAll(SoftSender s, long base, int count) {
        return Thread.ofPlatform().name("send-" + base).start(() -> {
            try {
                for (int i = 0; i < count; i++) {
                    s.send(base + i, 64, null);
                }
                s.drain(Duration.ofSeconds(60));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

}
