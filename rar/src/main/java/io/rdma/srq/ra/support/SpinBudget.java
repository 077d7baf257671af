package io.rdma.srq.ra.support;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many of the adapter's threads may busy-poll at once in this JVM: a slot per spinning thread,
 * taken with {@link #tryEnter()} before a bounded spin and given back with {@link #exit()} before
 * the thread parks or sleeps. A thread that gets no slot does not spin: it parks (a call's caller),
 * sleeps on the completion channel (an activation's adaptive poller) or polls with short parks (the
 * outbound servicing loop).
 *
 * <p>Why: a request/reply round trip crosses the caller, the activation's poller, the endpoint's
 * WorkManager thread and back; only one of them has work at any moment, and the one that has it
 * needs a core. With more spinning threads than cores the thread with the work waits for a
 * scheduler time slice, so a round trip of microseconds takes milliseconds (measured on 2 cores:
 * it-tests/bench/RESULTS.md, "Request/reply, one caller"). The default leaves one core to the
 * threads that do the work: {@code availableProcessors - 1} slots (1 on 2 cores, none on 1 core).
 *
 * <p>The spins that take a slot: a synchronous call's caller while it polls for its reply
 * ({@code srq.call.spinNanos}), an adaptive poller's spin after its last completion, the outbound
 * servicing loop while a call waits that no caller polls for. A poller with {@code pollMode=busy}
 * spins without a slot: that mode asks for a core of its own.
 *
 * <p>System property {@code srq.spinners}: the number of slots, 0..1024 (0: nothing spins); the
 * default is {@code Runtime.availableProcessors() - 1}. Thread-safe, lock-free.
 */
public final class SpinBudget {
    /** The slots of this JVM's adapter threads. */
    public static final SpinBudget PROCESS = new SpinBudget((int) SystemProperties.SPINNERS.readOrDefault());

    private final int slots;
    private final AtomicInteger taken = new AtomicInteger();

    /**
     * @param slots threads that may spin at once, ≥ 0
     * @throws IllegalArgumentException when negative
     */
    public SpinBudget(int slots) {
        if (slots < 0) {
            throw new IllegalArgumentException("srq.spinners must be in 0..1024, got " + slots);
        }
        this.slots = slots;
    }

    /** @return whether the caller may spin now; if so it must call {@link #exit()} once it stops */
    public boolean tryEnter() {
        while (true) {
            int t = taken.get();
            if (t >= slots) {
                return false;
            }
            if (taken.compareAndSet(t, t + 1)) {
                return true;
            }
        }
    }

    /** Gives back a slot taken with {@link #tryEnter()}. */
    public void exit() {
        taken.decrementAndGet();
    }

    /** @return slots taken now */
    public int spinning() {
        return taken.get();
    }

    /** @return the number of slots */
    public int slots() {
        return slots;
    }
}
