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
import java.util.function.Supplier;

/**
 * The send side of one RC QP: a registered ring of {@code depth} slots of {@code slotSize} bytes,
 * one signaled SEND per message (ibv_post_send(3)), completions reaped from the QP's own send CQ. A
 * slot is reused only after its send completed (the completions of one QP come in order), so at most
 * {@code depth} sends are in flight; a full ring makes {@link #post} reap, up to 30 s.
 *
 * <p>Thread-safe: messages of concurrent callers are posted one at a time. {@link #close()} makes a
 * post that waits for room give up at once; after it every call throws {@code ENOTCONN}, never
 * touches freed memory. The QP and CQ stay the caller's.
 */
public final class SendRing implements AutoCloseable {
    /** The longest {@link #post} waits for room when no other bound is given. */
    public static final Duration FULL_QUEUE_WAIT = Duration.ofSeconds(30);

    private final QueuePair qp;
    private final CompletionQueue sendCq;
    private final MemoryRegion ring;
    private final WorkCompletionArray wcs;
    private final int slotSize;
    private final int depth;
    private final Supplier<String> peer;
    private long sent;
    private final Duration fullWait;
    private int inFlight;
    private String failure;
    private boolean closed;
    /** Set by close() before it takes the lock, so a post waiting for a full ring gives up at once. */
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
     * SEND_WITH_IMM when {@code immData} is not null); the buffer's position moves to its limit.
     *
     * @param message  the bytes, at most the slot size
     * @param immData  immediate data in host order, or null
     * @param property the configuration property that sets the slot size, for EMSGSIZE's message
     * @throws VerbsException EMSGSIZE above the slot size; EIO if an earlier send completed with an
     *                        error (named); ETIMEDOUT if the ring stayed full for the ring's
     *                        full-queue wait (30 s unless given); ENOTCONN after
     *                        {@link #close()}
     */
    public synchronized void post(ByteBuffer message, Integer immData, String property) throws VerbsException {
        ensureOpen();
        int length = message.remaining();
        if (length > slotSize) {
            throw new VerbsException("ibv_post_send", Errno.EMSGSIZE, "a message of " + length + " bytes exceeds "
                    + property + " " + slotSize);
        }
        long deadline = System.nanoTime() + fullWait.toNanos();
        while (inFlight >= depth) {
            if (closing) {
                throw new VerbsException("ibv_post_send", Errno.ENOTCONN, "the connection to " + peer.get()
                        + " closed while the send queue was full");
            }
            if (reap() == 0 && System.nanoTime() > deadline) {
                throw new VerbsException("ibv_post_send", Errno.ETIMEDOUT, "the send queue to " + peer.get()
                        + " stayed full for " + fullWait.toMillis() + " ms");
            }
        }
        checkFailure();
        long offset = (sent % depth) * slotSize;
        MemorySegment.copy(MemorySegment.ofBuffer(message), 0, ring.segment(), offset, length);
        qp.postSend(sent, ring, offset, length, immData);
        message.position(message.limit());
        sent++;
        inFlight++;
    }

    /**
     * Waits until every message posted so far has completed (the peer's QP acknowledged it).
     *
     * @param timeout the longest wait
     * @throws VerbsException ETIMEDOUT; EIO if a send completed with an error; ENOTCONN after close
     */
    public synchronized void flush(Duration timeout) throws VerbsException {
        ensureOpen();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (inFlight > 0) {
            if (closing) {
                throw new VerbsException("ibv_poll_cq", Errno.ENOTCONN, "the connection to " + peer.get() + " closed");
            }
            if (reap() == 0 && System.nanoTime() > deadline) {
                throw new VerbsException("ibv_poll_cq", Errno.ETIMEDOUT, inFlight + " sends to " + peer.get()
                        + " not completed within " + timeout.toMillis() + " ms");
            }
        }
        checkFailure();
    }

    /** @return messages posted so far */
    public synchronized long sent() {
        return sent;
    }

    private void ensureOpen() throws VerbsException {
        if (closed) {
            throw new VerbsException("ibv_post_send", Errno.ENOTCONN, "the connection to " + peer.get() + " is closed");
        }
    }

    private int reap() throws VerbsException {
        int n = sendCq.poll(wcs);
        for (int i = 0; i < n; i++) {
            if (!wcs.isSuccess(i) && failure == null) {
                failure = "send " + wcs.wrId(i) + " to " + peer.get() + " completed with " + wcs.status(i);
            }
        }
        inFlight -= n;
        if (n == 0) {
            Thread.onSpinWait();
        }
        return n;
    }

    private void checkFailure() throws VerbsException {
        if (failure != null) {
            throw new VerbsException("ibv_poll_cq", Errno.EIO, failure);
        }
    }

    /**
     * Deregisters the ring. Idempotent; later calls throw ENOTCONN. Close the QP after this.
     *
     * @throws VerbsException the errno of ibv_dereg_mr
     */
    @Override
    public void close() throws VerbsException {
        closing = true; // a post waiting for room gives up, so the lock below comes at once
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            try {
                ring.close();
            } finally {
                wcs.close();
            }
        }
    }
}
