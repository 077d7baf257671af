package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.SrqCallException;
import io.rdma.srq.api.SrqMessage;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * One call waiting for its reply: its number (the imm_data of the request), its outcome (the
 * reply, or the failure) set exactly once by whoever comes first — the servicing loop with the
 * reply, the waiter at its deadline, a close or a peer failure — and its way of waking the caller:
 * a synchronous caller spins for {@link #SPIN_NANOS}, then parks (no lock held, no thread per
 * peer); an asynchronous call's future is completed on the common pool, never on the thread that
 * set the outcome.
 */
final class PendingCall {
    /**
     * How long a synchronous caller spins before it parks, in ns: long enough to catch a reply of
     * the soft device or an in-host hardware round trip without a park/unpark (each costs a few µs
     * to tens of µs), short enough that eight waiting callers on two cores do not starve the
     * servicing loop. Measured: see it-tests/bench/RESULTS.md.
     */
    static final long SPIN_NANOS = Long.getLong("srq.call.spinNanos", 20_000L);

    private final int id;
    private final CompletableFuture<SrqMessage> future;
    private final AtomicReference<Object> outcome = new AtomicReference<>();
    private volatile Thread waiter;

    /**
     * @param id     the request's imm_data
     * @param future the future of an asynchronous call, or null for a synchronous one
     */
    PendingCall(int id, CompletableFuture<SrqMessage> future) {
        this.id = id;
        this.future = future;
    }

    /** @return the request's imm_data */
    int id() {
        return id;
    }

    /** @return whether the outcome is set */
    boolean isDone() {
        return outcome.get() != null;
    }

    /**
     * Sets the outcome unless one is set already, and wakes the caller.
     *
     * @param result an {@link SrqMessage} or an {@link SrqCallException}
     * @return whether this set it
     */
    boolean complete(Object result) {
        if (!outcome.compareAndSet(null, result)) {
            return false;
        }
        if (future != null) {
            ForkJoinPool.commonPool().execute(() -> {
                if (result instanceof SrqMessage m) {
                    future.complete(m);
                } else {
                    future.completeExceptionally((Throwable) result);
                }
            });
        } else {
            Thread w = waiter;
            if (w != null) {
                LockSupport.unpark(w);
            }
        }
        return true;
    }

    /**
     * Waits for the outcome until {@code deadline} (System.nanoTime); at the deadline asks
     * {@code onTimeout} to set the timeout (which it does unless the reply won the race).
     *
     * @param deadline  System.nanoTime at which the call times out
     * @param onTimeout sets the timeout outcome
     * @return the reply
     * @throws SrqCallException the failure
     */
    SrqMessage await(long deadline, Runnable onTimeout) {
        Object o = outcome.get();
        long spinUntil = System.nanoTime() + SPIN_NANOS;
        while (o == null && System.nanoTime() < spinUntil) {
            Thread.onSpinWait();
            o = outcome.get();
        }
        if (o == null) {
            waiter = Thread.currentThread();
            while ((o = outcome.get()) == null) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    onTimeout.run();
                } else {
                    LockSupport.parkNanos(this, left);
                }
            }
        }
        if (o instanceof SrqMessage m) {
            return m;
        }
        throw (SrqCallException) o;
    }
}
