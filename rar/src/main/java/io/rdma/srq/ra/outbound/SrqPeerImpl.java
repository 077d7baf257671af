package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.WorkCompletionArray;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.EnumSet;
import java.util.function.Consumer;

/**
 * {@link SrqPeer}: an RC QP with its own CQ on the pooled connection's device, connected through
 * rdma_cm, and a registered ring of {@value #DEPTH} send slots; a slot is reused only after its send
 * completed (completions of one QP come in order).
 */
final class SrqPeerImpl implements SrqPeer {
    static final int DEPTH = 64;
    private static final Duration FULL_QUEUE_WAIT = Duration.ofSeconds(30);

    private final CompletionQueue cq;
    private final QueuePair qp;
    private final MemoryRegion ring;
    private final CmConnection connection;
    private final int slot;
    private final WorkCompletionArray wcs = new WorkCompletionArray(DEPTH);
    private final Consumer<SrqPeerImpl> onClose;
    private long sent;
    private int inFlight;
    private String failure;
    private boolean closed;

    private SrqPeerImpl(CompletionQueue cq, QueuePair qp, MemoryRegion ring, CmConnection connection, int slot,
                        Consumer<SrqPeerImpl> onClose) {
        this.cq = cq;
        this.qp = qp;
        this.ring = ring;
        this.connection = connection;
        this.slot = slot;
        this.onClose = onClose;
    }

    static SrqPeerImpl connect(SrqManagedConnection mc, InetSocketAddress remote, Duration timeout,
                               Consumer<SrqPeerImpl> onClose) throws VerbsException {
        int slot = mc.config().sendBufferSize();
        CompletionQueue cq = mc.context().createCq(2 * DEPTH, null);
        QueuePair qp = null;
        MemoryRegion ring = null;
        try {
            qp = mc.pd().createQp(new QpInitAttributes(QpInitAttributes.QpType.RC, cq, cq, null, DEPTH, 1, 1, 1, 0));
            ring = mc.pd().allocateRegistered((long) slot * DEPTH, EnumSet.of(AccessFlag.LOCAL_WRITE));
            CmConnection c = mc.context().connect(qp, remote, timeout);
            return new SrqPeerImpl(cq, qp, ring, c, slot, onClose);
        } catch (VerbsException | RuntimeException e) {
            closeQuietly(ring, e);
            closeQuietly(qp, e);
            closeQuietly(cq, e);
            throw e;
        }
    }

    private static void closeQuietly(AutoCloseable c, Exception cause) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                cause.addSuppressed(e);
            }
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the peer connection to " + connection.remoteAddress() + " is closed");
        }
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return connection.remoteAddress();
    }

    @Override
    public void send(ByteBuffer message) throws VerbsException {
        post(message, null);
    }

    @Override
    public void send(ByteBuffer message, int immData) throws VerbsException {
        post(message, immData);
    }

    private void post(ByteBuffer message, Integer imm) throws VerbsException {
        ensureOpen();
        int length = message.remaining();
        if (length > slot) {
            throw new VerbsException("ibv_post_send", Errno.EMSGSIZE, "a message of " + length
                    + " bytes exceeds the connection definition's sendBufferSize " + slot);
        }
        long deadline = System.nanoTime() + FULL_QUEUE_WAIT.toNanos();
        while (inFlight >= DEPTH) {
            if (reap() == 0 && System.nanoTime() > deadline) {
                throw new VerbsException("ibv_post_send", Errno.ETIMEDOUT, "the send queue to " + remoteAddress()
                        + " stayed full for " + FULL_QUEUE_WAIT.toSeconds() + " s");
            }
        }
        checkFailure();
        long offset = (sent % DEPTH) * slot;
        MemorySegment.copy(MemorySegment.ofBuffer(message), 0, ring.segment(), offset, length);
        qp.postSend(sent, ring, offset, length, imm);
        message.position(message.limit());
        sent++;
        inFlight++;
    }

    private int reap() throws VerbsException {
        int n = cq.poll(wcs);
        for (int i = 0; i < n; i++) {
            if (!wcs.isSuccess(i) && failure == null) {
                failure = "send " + wcs.wrId(i) + " to " + remoteAddress() + " completed with " + wcs.status(i);
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

    @Override
    public void flush(Duration timeout) throws VerbsException {
        ensureOpen();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (inFlight > 0) {
            if (reap() == 0 && System.nanoTime() > deadline) {
                throw new VerbsException("ibv_poll_cq", Errno.ETIMEDOUT, inFlight + " sends to " + remoteAddress()
                        + " not completed within " + timeout.toMillis() + " ms");
            }
        }
        checkFailure();
    }

    @Override
    public long sent() {
        return sent;
    }

    @Override
    public void close() throws VerbsException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            connection.close();
            qp.close();
            ring.close();
            cq.close();
        } finally {
            wcs.close();
            onClose.accept(this);
        }
    }
}
