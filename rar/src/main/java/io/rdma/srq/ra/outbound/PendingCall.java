package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.SrqCallException;
import io.rdma.srq.api.SrqMessage;
import io.rdma.srq.ra.support.SpinBudget;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

/**
 * One call waiting for its reply: its number (the imm_data of the request), its outcome (the
 * reply, or the failure) set exactly once by whoever comes first — the thread that polled the
 * reply (the caller itself, another caller of the same pooled connection, or the servicing loop),
 * the waiter at its deadline, a close or a peer failure — and its way of waking the caller: a
 * synchronous caller polls the pooled connection's CQs itself for as long as {@link CallSpin} says
 * when {@link SpinBudget} gives it a slot (so the reply needs no hand-off to another thread), then
 * parks and counts itself with the servicing loop, which polls for it from then on (no lock held
 * while waiting, no thread per peer); an asynchronous call's future is completed on the common
 * pool, never on the thread that set the outcome.
 */
final class PendingCall {
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

    /** @return whether a future (callAsync) gets the outcome: no thread waits for it */
    boolean isAsync() {
        return future != null;
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
     * Waits for the outcome until {@code deadline} (System.nanoTime): polls with {@code poll} and
     * spins for {@code spinNanos} if {@link SpinBudget#PROCESS} has a slot, then parks, counted
     * with {@code service} as a call the servicing loop must poll for; at the deadline asks
     * {@code onTimeout} to set the timeout (which it does unless the reply won the race).
     * Synchronous calls only.
     *
     * @param deadline  System.nanoTime at which the call times out
     * @param spinNanos how long to poll and spin before parking, ns ({@link CallSpin#nanos})
     * @param onTimeout sets the timeout outcome
     * @param onInterrupt sets the outcome for an interrupted waiter (EINTR; the interrupt status stays set)
     * @param poll      one poll of the pooled connection's CQs, returning at once if another thread polls
     * @param service   the servicing loop, which polls while the caller is parked
     * @return the reply
     * @throws SrqCallException the failure
     */
    SrqMessage await(long deadline, long spinNanos, Runnable onTimeout, Runnable onInterrupt, IntSupplier poll,
                      ReceiveService service) {
        Object o = outcome.get();
        if (o == null && spinNanos > 0 && SpinBudget.PROCESS.tryEnter()) {
            try {
                long spinUntil = Math.min(System.nanoTime() + spinNanos, deadline);
                do {
                    if (poll.getAsInt() == 0) {
                        Thread.onSpinWait();
                    }
                    o = outcome.get();
                } while (o == null && System.nanoTime() - spinUntil < 0);
            } finally {
                SpinBudget.PROCESS.exit();
            }
        }
        if (o == null) {
            waiter = Thread.currentThread();
            service.callStarted();
            try {
                while ((o = outcome.get()) == null) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        onTimeout.run();
                    } else if (Thread.currentThread().isInterrupted()) {
                        onInterrupt.run(); // parkNanos would return at once: no busy wait until the deadline
                    } else {
                        LockSupport.parkNanos(this, left);
                    }
                }
            } finally {
                service.callEnded();
            }
        }
        if (o instanceof SrqMessage m) {
            return m;
        }
        throw (SrqCallException) o;
    }
}
