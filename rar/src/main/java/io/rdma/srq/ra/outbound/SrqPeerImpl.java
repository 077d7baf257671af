package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.support.RcConnection;
import io.rdma.srq.ra.support.admission.Admission;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * {@link SrqPeer}: an {@link RcConnection} on the pooled connection's device without receives,
 * connected through rdma_cm, its send ring ({@value RcConnection#SEND_DEPTH} × sendBufferSize bytes)
 * registered at connect. Every method but {@link #close()} throws IllegalStateException after close.
 */
final class SrqPeerImpl implements SrqPeer {
    private static final String SEND_BUFFER_SIZE = "the connection definition's sendBufferSize";

    private final RcConnection rc;
    private final InetSocketAddress remote;
    private final Consumer<SrqPeerImpl> onClose;
    private volatile boolean closed;

    private SrqPeerImpl(RcConnection rc, InetSocketAddress remote, Consumer<SrqPeerImpl> onClose) {
        this.rc = rc;
        this.remote = remote;
        this.onClose = onClose;
    }

    static SrqPeerImpl connect(SrqManagedConnection mc, InetSocketAddress remote, Duration timeout,
                               Consumer<SrqPeerImpl> onClose) throws VerbsException {
        RcConnection rc = RcConnection.connect(mc.pd(), RcConnection.Receives.none(),
                new RcConnection.Sends(mc.config().sendBufferSize(), SEND_BUFFER_SIZE, true), remote, timeout,
                Admission.privateDataFor(mc.authKeys(), remote));
        return new SrqPeerImpl(rc, rc.connection().remoteAddress(), onClose);
    }

    private RcConnection rc() {
        if (closed) {
            throw new IllegalStateException("the peer connection to " + remote + " is closed");
        }
        return rc;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        rc();
        return remote;
    }

    @Override
    public void send(ByteBuffer message) throws VerbsException {
        rc().send(message, null);
    }

    @Override
    public void send(ByteBuffer message, int immData) throws VerbsException {
        rc().send(message, immData);
    }

    @Override
    public void flush(Duration timeout) throws VerbsException {
        rc().flush(timeout);
    }

    @Override
    public long sent() {
        return rc().sent();
    }

    @Override
    public void close() throws VerbsException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            rc.close();
        } finally {
            onClose.accept(this);
        }
    }
}
