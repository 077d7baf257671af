package io.rdma.srq.ra.support;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SpinBudgetTest {

    @Test
    void givesAtMostItsSlotsAndASlotGivenBackCanBeTakenAgain() {
        SpinBudget b = new SpinBudget(2);
        assertTrue(b.tryEnter());
        assertTrue(b.tryEnter());
        assertFalse(b.tryEnter(), "a third spinner gets no slot");
        assertEquals(2, b.spinning());
        b.exit();
        assertEquals(1, b.spinning());
        assertTrue(b.tryEnter());
        assertFalse(b.tryEnter());
    }

    @Test
    void aPollerGivesItsSlotToACallerThatAsksForIt() throws Exception {
        SpinBudget b = new SpinBudget(1);
        assertTrue(b.tryEnterYielding(), "the poller spins");
        AtomicBoolean stop = new AtomicBoolean();
        Thread poller = Thread.ofPlatform().start(() -> {
            while (!b.yieldRequested() && !stop.get()) {
                Thread.onSpinWait();
            }
            b.exitYielding();
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        assertTrue(b.enterWhenYielded(deadline, () -> false), "the caller got the poller's slot");
        assertFalse(b.yieldRequested(), "no request left behind");
        assertFalse(b.tryEnterYielding(), "the caller holds the only slot");
        stop.set(true);
        poller.join();
        b.exit();
        assertEquals(0, b.spinning());
    }

    @Test
    void aCallerDoesNotWaitForASlotAnotherCallerHolds() {
        SpinBudget b = new SpinBudget(1);
        assertTrue(b.tryEnter());
        long start = System.nanoTime();
        assertFalse(b.enterWhenYielded(start + TimeUnit.SECONDS.toNanos(10), () -> false));
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "at once: callers do not yield");
        assertFalse(b.yieldRequested());
    }

    @Test
    void aPollerTakesNoSlotWhileACallerAsksForOne() throws Exception {
        SpinBudget b = new SpinBudget(1);
        assertTrue(b.tryEnterYielding());
        AtomicBoolean got = new AtomicBoolean();
        Thread caller = Thread.ofPlatform().start(() -> got.set(b.enterWhenYielded(System.nanoTime()
                + TimeUnit.SECONDS.toNanos(10), () -> false)));
        while (!b.yieldRequested()) {
            Thread.onSpinWait();
        }
        b.exitYielding();
        caller.join();
        assertTrue(got.get());
        assertFalse(b.tryEnterYielding(), "the slot is the caller's");
        b.exit();
        assertTrue(b.tryEnterYielding(), "free again");
        b.exitYielding();
    }

    @Test
    void noSlotsMeansNothingSpins() {
        SpinBudget b = new SpinBudget(0);
        assertFalse(b.tryEnter());
        assertEquals(0, b.spinning());
    }

    @Test
    void aNegativeCountIsRefusedNamingTheProperty() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SpinBudget(-1));
        assertTrue(e.getMessage().contains("srq.spinners"), e.getMessage());
        assertTrue(e.getMessage().contains("0..1024"), e.getMessage());
    }

    @Test
    void theProcessBudgetLeavesOneCoreToTheThreadsThatWork() {
        if (System.getProperty("srq.spinners") == null) {
            assertEquals(Math.max(0, Runtime.getRuntime().availableProcessors() - 1), SpinBudget.PROCESS.slots());
        } else {
            assertEquals(Integer.parseInt(System.getProperty("srq.spinners").strip()), SpinBudget.PROCESS.slots());
        }
    }

    @Test
    void threadsRacingForSlotsNeverHoldMoreThanThereAre() throws Exception {
        SpinBudget b = new SpinBudget(3);
        int threads = 8;
        CyclicBarrier start = new CyclicBarrier(threads);
        AtomicInteger most = new AtomicInteger();
        AtomicInteger holding = new AtomicInteger();
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            all.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                for (int i = 0; i < 20_000; i++) {
                    if (b.tryEnter()) {
                        most.accumulateAndGet(holding.incrementAndGet(), Math::max);
                        holding.decrementAndGet();
                        b.exit();
                    }
                }
            }));
        }
        for (Thread t : all) {
            t.join();
        }
        assertTrue(most.get() <= 3, "at most 3 held at once, saw " + most.get());
        assertEquals(0, b.spinning());
    }
}
