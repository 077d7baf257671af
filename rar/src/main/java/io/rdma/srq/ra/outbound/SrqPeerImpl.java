package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.support.SendRing;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * {@link SrqPeer}: an RC QP with its own CQ on the pooled connection's device, connected through
 * rdma_cm, sending through a {@link SendRing} of {@value #DEPTH} slots.
 */
final class SrqPeerImpl implements SrqPeer {
    static final int DEPTH = 64;
    private static final String SEND_BUFFER_SIZE = "the connection definition's sendBufferSize";

    private final CompletionQueue cq;
    private final QueuePair qp;
    private final SendRing ring;
    private final CmConnection connection;
    private final Consumer<SrqPeerImpl> onClose;
    private boolean closed;

    private SrqPeerImpl(CompletionQueue cq, QueuePair qp, SendRing ring, CmConnection connection,
                        Consumer<SrqPeerImpl> onClose) {
        this.cq = cq;
        this.qp = qp;
        this.ring = ring;
        this.connection = connection;
        this.onClose = onClose;
    }

    static SrqPeerImpl connect(SrqManagedConnection mc, InetSocketAddress remote, Duration timeout,
                               Consumer<SrqPeerImpl> onClose) throws VerbsException {
        CompletionQueue cq = mc.context().createCq(2 * DEPTH, null);
        QueuePair qp = null;
        SendRing ring = null;
        try {
            qp = mc.pd().createQp(QpInitAttributes.builder(QpInitAttributes.QpType.RC).cq(cq)
                    .maxSendWr(DEPTH).maxRecvWr(1).maxRecvSge(1).build());
            ring = new SendRing(mc.pd(), qp, cq, mc.config().sendBufferSize(), DEPTH, remote::toString);
            CmConnection c = mc.context().connect(qp, remote, timeout);
            return new SrqPeerImpl(cq, qp, ring, c, onClose);
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
        ensureOpen();
        ring.post(message, null, SEND_BUFFER_SIZE);
    }

    @Override
    public void send(ByteBuffer message, int immData) throws VerbsException {
        ensureOpen();
        ring.post(message, immData, SEND_BUFFER_SIZE);
    }

    @Override
    public void flush(Duration timeout) throws VerbsException {
        ensureOpen();
        ring.flush(timeout);
    }

    @Override
    public long sent() {
        return ring.sent();
    }

    @Override
    public void close() throws VerbsException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            connection.close();
            ring.close();
            qp.close();
            cq.close();
        } finally {
            onClose.accept(this);
        }
    }
}
