package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.SrqCallException;
import io.rdma.srq.api.SrqMessage;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * One call waiting for its reply: its number (the imm_data of the request), its outcome (the
 * reply, or the failure) set exactly once by whoever comes first — the thread that polled the
 * reply (the caller itself, another caller of the same pooled connection, or the servicing loop),
 * the waiter at its deadline, a close or a peer failure — and its way of waking the caller: a
 * synchronous caller that parked ({@link #parkHere}) is unparked (how it waits:
 * {@link PeerLink#await}); an asynchronous call's future is completed on the common pool, never on
 * the thread that set the outcome.
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

    /** The calling thread is about to park until the outcome is set: {@link #complete} unparks it. */
    void parkHere() {
        waiter = Thread.currentThread();
    }

    /**
     * {@return the reply, once the outcome is set}
     *
     * @throws SrqCallException the failure the outcome is
     * @throws IllegalStateException before the outcome is set
     */
    SrqMessage reply() {
        Object o = outcome.get();
        if (o instanceof SrqMessage m) {
            return m;
        }
        if (o == null) {
            throw new IllegalStateException("call " + Integer.toUnsignedString(id) + " has no outcome yet");
        }
        throw (SrqCallException) o;
    }
}
