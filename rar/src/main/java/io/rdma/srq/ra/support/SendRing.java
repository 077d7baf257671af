package io.rdma.srq.ra.support;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.WorkCompletionArray;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The send side of one RC QP: a registered ring of {@code depth} slots of {@code slotSize} bytes,
 * one signaled SEND per message (ibv_post_send(3)), completions reaped from the QP's own send CQ. A
 * slot is reused only after its send completed (the completions of one QP come in order), so at most
 * {@code depth} sends are in flight.
 *
 * <p>Waiting for room (a full ring in {@link #post}) or for completions ({@link #flush}) holds no
 * lock and never spins: the waiters park on a condition of the ring's lock, which a wait releases.
 * One of them at a time polls the send CQ for all (the CQ has no completion channel: one fd per
 * connection would be the price), parking {@value #FIRST_POLL_PAUSE_NANOS} ns between polls, twice as
 * long after every empty poll up to {@value #MAX_POLL_PAUSE_NANOS} ns; whoever reaps completions wakes
 * every waiter, and a waiter that leaves wakes another to take over the polling. A post with room
 * takes the lock, copies, posts and returns: no allocation, no poll, no system call of its own.
 *
 * <p>Thread-safe: messages of concurrent callers are posted one at a time. {@link #close()} wakes
 * every waiter at once, which then throws {@code ENOTCONN}; after it every call throws
 * {@code ENOTCONN}, never touches freed memory. The QP and CQ stay the caller's.
 */
public final class SendRing implements AutoCloseable {
    /** The longest {@link #post} waits for room when no other bound is given. */
    public static final Duration FULL_QUEUE_WAIT = Duration.ofSeconds(30);
    /** The polling waiter's first pause between two polls of the send CQ, in nanoseconds. */
    static final long FIRST_POLL_PAUSE_NANOS = 10_000;
    /** The polling waiter's longest pause between two polls of the send CQ, in nanoseconds. */
    static final long MAX_POLL_PAUSE_NANOS = 1_000_000;

    private final QueuePair qp;
    private final CompletionQueue sendCq;
    private final MemoryRegion ring;
    private final WorkCompletionArray wcs;
    private final int slotSize;
    private final int depth;
    private final Supplier<String> peer;
    private final Duration fullWait;
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when completions were reaped, when the polling waiter leaves, and on close. */
    private final Condition completions = lock.newCondition();
    // guarded by lock
    private long sent;
    private int inFlight;
    /** Written under lock; read without it by {@link #hasFailed}. */
    private volatile String failure;
    private boolean closed;
    /** Whether a waiter is polling the send CQ for the others. */
    private boolean polling;
    /** Set by close() before it takes the lock, so that no waiter starts another wait. */
    private volatile boolean closing;

    /**
     * Registers the ring ({@code depth × slotSize} bytes, IBV_ACCESS_LOCAL_WRITE).
     *
     * @param pd       the protection domain of {@code qp}
     * @param qp       an RC QP whose send completions go to {@code sendCq} alone, max_send_wr ≥ depth
     * @param sendCq   that CQ, at least {@code depth} entries
     * @param slotSize bytes per message, ≥ 1
     * @param depth    sends in flight at most, ≥ 1
     * @param peer     names the peer in error messages
     * @param fullWait the longest {@link #post} waits for room in a full ring before ETIMEDOUT
     * @throws VerbsException the errno of ibv_reg_mr
     */
    public SendRing(ProtectionDomain pd, QueuePair qp, CompletionQueue sendCq, int slotSize, int depth,
                    Supplier<String> peer, Duration fullWait) throws VerbsException {
        this.fullWait = fullWait;
        this.qp = qp;
        this.sendCq = sendCq;
        this.slotSize = slotSize;
        this.depth = depth;
        this.peer = peer;
        this.ring = pd.allocateRegistered((long) slotSize * depth, EnumSet.of(AccessFlag.LOCAL_WRITE));
        this.wcs = new WorkCompletionArray(depth);
    }

    /**
     * Copies the remaining bytes of {@code message} into the next free slot and posts a SEND (or
     * SEND_WITH_IMM when {@code immData} is not null); the buffer's position moves to its limit. A
     * full ring makes the caller wait, without holding the lock, until a send completes.
     *
     * @param message  the bytes, at most the slot size
     * @param immData  immediate data in host order, or null
     * @param property the configuration property that sets the slot size, for EMSGSIZE's message
     * @throws VerbsException EMSGSIZE above the slot size; EIO if an earlier send completed with an
     *                        error (named); ETIMEDOUT if the ring stayed full for the ring's
     *                        full-queue wait (30 s unless given); ENOTCONN after, or during the
     *                        wait, {@link #close()}; EINTR if the waiting thread is interrupted
     *                        (its interrupt status is kept)
     */
    public void post(ByteBuffer message, Integer immData, String property) throws VerbsException {
        post(message, immData, property, fullWait);
    }

    /**
     * {@link #post(ByteBuffer, Integer, String)} with its own bound on the wait for room (a call's
     * timeout).
     *
     * @param message  the bytes, at most the slot size
     * @param immData  immediate data in host order, or null
     * @param property the configuration property that sets the slot size, for EMSGSIZE's message
     * @param wait     the longest wait for room in a full ring
     * @throws VerbsException as {@link #post(ByteBuffer, Integer, String)}, ETIMEDOUT after {@code wait}
     */
    public void post(ByteBuffer message, Integer immData, String property, Duration wait) throws VerbsException {
        lock.lock();
        try {
            ensureOpen();
            int length = message.remaining();
            if (length > slotSize) {
                throw new VerbsException("ibv_post_send", Errno.EMSGSIZE, "a message of " + length + " bytes exceeds "
                        + property + " " + slotSize);
            }
            if (inFlight >= depth && !awaitInFlightAtMost(depth - 1, System.nanoTime() + wait.toNanos(),
                    "ibv_post_send", "while the send queue was full")) {
                throw new VerbsException("ibv_post_send", Errno.ETIMEDOUT, "the send queue to " + peer.get()
                        + " stayed full for " + wait.toMillis() + " ms");
            }
            checkFailure();
            long offset = (sent % depth) * slotSize;
            MemorySegment.copy(MemorySegment.ofBuffer(message), 0, ring.segment(), offset, length);
            qp.postSend(sent, ring, offset, length, immData);
            message.position(message.limit());
            sent++;
            inFlight++;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits, without holding the lock, until every message posted so far has completed (the peer's QP
     * acknowledged it).
     *
     * @param timeout the longest wait
     * @throws VerbsException ETIMEDOUT; EIO if a send completed with an error; ENOTCONN after, or during
     *                        the wait, close; EINTR if the waiting thread is interrupted
     */
    public void flush(Duration timeout) throws VerbsException {
        lock.lock();
        try {
            ensureOpen();
            if (!awaitInFlightAtMost(0, System.nanoTime() + timeout.toNanos(), "ibv_poll_cq", "")) {
                throw new VerbsException("ibv_poll_cq", Errno.ETIMEDOUT, inFlight + " sends to " + peer.get()
                        + " not completed within " + timeout.toMillis() + " ms");
            }
            checkFailure();
        } finally {
            lock.unlock();
        }
    }

    /**
     * @return whether a send completed with an error: the QP is in the error state, every later post
     *         and flush throws EIO, and the connection must be replaced
     */
    public boolean hasFailed() {
        return failure != null;
    }

    /** @return messages posted so far */
    public long sent() {
        lock.lock();
        try {
            return sent;
        } finally {
            lock.unlock();
        }
    }

    private void ensureOpen() throws VerbsException {
        if (closed) {
            throw new VerbsException("ibv_post_send", Errno.ENOTCONN, "the connection to " + peer.get() + " is closed");
        }
    }

    /**
     * Under the lock: waits until at most {@code most} sends are in flight. The lock is released
     * while the thread is parked; one waiter at a time polls the send CQ (see the class comment).
     *
     * @param most     the sends in flight to wait for, at most
     * @param deadline {@link System#nanoTime()} at which to give up
     * @param op       the verb named by an exception
     * @param during   what ENOTCONN's message adds about the wait ("" for nothing)
     * @return true when reached, false when the deadline passed first
     * @throws VerbsException ENOTCONN when the ring closes during the wait; EINTR on an interrupt
     */
    private boolean awaitInFlightAtMost(int most, long deadline, String op, String during) throws VerbsException {
        if (inFlight <= most) {
            return true;
        }
        boolean polled = false;
        try {
            reap();
            long pause = FIRST_POLL_PAUSE_NANOS;
            while (inFlight > most) {
                if (closing) {
                    throw closedDuring(op, during);
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                if (polling) {
                    completions.awaitNanos(left); // woken by whoever reaps, by a leaving poller, or by close
                    continue;
                }
                polling = true;
                polled = true;
                try {
                    completions.awaitNanos(Math.min(pause, left));
                } finally {
                    polling = false;
                }
                if (closing) {
                    continue; // the ring may be freed: never poll after close
                }
                pause = reap() > 0 ? FIRST_POLL_PAUSE_NANOS : Math.min(2 * pause, MAX_POLL_PAUSE_NANOS);
            }
            if (closed) { // room came from a reap just before the close that woke this thread
                throw closedDuring(op, during);
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new VerbsException(op, Errno.EINTR, "interrupted while waiting for sends to " + peer.get()
                    + " to complete");
        } finally {
            if (polled && !polling && lock.hasWaiters(completions)) {
                completions.signal(); // hand the polling over to another waiter
            }
        }
    }

    private VerbsException closedDuring(String op, String during) {
        return new VerbsException(op, Errno.ENOTCONN, "the connection to " + peer.get() + " closed"
                + (during.isEmpty() ? "" : " " + during));
    }

    /** Polls the send CQ once, under the lock; wakes every waiter if completions came. */
    private int reap() throws VerbsException {
        int n = sendCq.poll(wcs);
        for (int i = 0; i < n; i++) {
            if (!wcs.isSuccess(i) && failure == null) {
                failure = "send " + wcs.wrId(i) + " to " + peer.get() + " completed with " + wcs.status(i);
            }
        }
        if (n > 0) {
            inFlight -= n;
            completions.signalAll();
        }
        return n;
    }

    private void checkFailure() throws VerbsException {
        if (failure != null) {
            throw new VerbsException("ibv_poll_cq", Errno.EIO, failure);
        }
    }

    /**
     * Wakes every waiter (each throws ENOTCONN) and deregisters the ring. Idempotent; later calls
     * throw ENOTCONN. Close the QP after this.
     *
     * @throws VerbsException the errno of ibv_dereg_mr
     */
    @Override
    public void close() throws VerbsException {
        closing = true; // a waiter that wakes now gives up instead of polling or waiting again
        lock.lock();
        try {
            completions.signalAll();
            if (closed) {
                return;
            }
            closed = true;
            try {
                ring.close();
            } finally {
                wcs.close();
            }
        } finally {
            lock.unlock();
        }
    }
}
