package io.rdma.srq.ra.support;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
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
