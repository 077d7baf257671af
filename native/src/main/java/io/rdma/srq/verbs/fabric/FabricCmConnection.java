package io.rdma.srq.verbs.fabric;

import io.rdma.srq.api.CmEventType;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.spi.ResourceBase;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;

/**
 * A connection of a MSG endpoint. One that connected reads its events from its own EQ
 * ({@link #nextEvent}: FI_SHUTDOWN is DISCONNECTED); one that was accepted has its events read by
 * its listener, from the listener's EQ, as rdma_cm reports them on the listener's channel (its
 * {@link #nextEvent} is always empty). {@link #disconnect()} is fi_shutdown(3).
 */
final class FabricCmConnection extends ResourceBase implements CmConnection {
    private final FabricQueuePair qp;
    private final InetSocketAddress remote;
    private final FabricCmListener listener;
    private final FabricEq eq;
    private final long fid;
    private volatile boolean established;
    private final java.util.concurrent.atomic.AtomicBoolean down = new java.util.concurrent.atomic.AtomicBoolean();
    /** A connected (not accepted) connection's DISCONNECTED of its own {@link #disconnect()}. */
    private volatile boolean localDown;

    FabricCmConnection(FabricContext context, FabricQueuePair qp, InetSocketAddress remote, FabricCmListener listener,
                       FabricEq eq) {
        super(context, "connection to " + remote + " on " + context.deviceName(), "rdma_destroy_id");
        this.qp = qp;
        this.remote = remote;
        this.listener = listener;
        this.eq = eq;
        this.fid = qp.fid();
    }

    /** {@return the address of the endpoint's fid, which its EQ events name} */
    long fid() {
        return fid;
    }

    @Override
    public QueuePair qp() {
        return qp;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return remote;
    }

    @Override
    public boolean isEstablished() {
        return established && !isClosed();
    }

    void established(boolean up) {
        established = up;
    }

    /** {@return true the first time the connection is seen down: one DISCONNECTED per connection} */
    boolean markDown() {
        established = false;
        return down.compareAndSet(false, true);
    }

    /**
     * rdma_disconnect(3): fi_shutdown(3), and — as rdma_cm reports DISCONNECTED to both sides — a
     * DISCONNECTED of this side too (on the listener for an accepted connection), where libfabric
     * tells only the peer.
     */
    @Override
    public void disconnect() {
        ensureOpen();
        boolean was = established;
        if (!markDown()) {
            return;
        }
        MemorySegment ep = qp.isClosed() ? null : qp.endpoint();
        if (was && ep != null) {
            FabricOps.shutdown(ep, 0); // -FI_ENOTCONN when the peer closed first: down either way
        }
        CmEvent mine = new CmEvent(CmEventType.DISCONNECTED, 0, null, this);
        if (listener != null) {
            listener.report(mine);
        } else {
            localDown = true;
        }
    }

    @Override
    public Optional<CmEvent> nextEvent(Duration timeout) {
        ensureOpen();
        if (listener != null) {
            return Optional.empty();
        }
        if (localDown) {
            localDown = false;
            return Optional.of(new CmEvent(CmEventType.DISCONNECTED, 0, null, this));
        }
        long deadline = System.nanoTime() + io.rdma.srq.verbs.spi.EventQueue.toNanos(timeout);
        long pause = 10_000;
        while (true) {
            Optional<FabricEq.Event> e = eq.read();
            if (e.isEmpty()) {
                if (!qp.isClosed()) {
                    qp.progress(); // tcp reports a peer's shutdown while the endpoint is progressed (driver note 27)
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || Thread.currentThread().isInterrupted()) {
                    return Optional.empty();
                }
                java.util.concurrent.locks.LockSupport.parkNanos(Math.min(pause, left));
                pause = Math.min(pause * 2, 1_000_000);
                continue;
            }
            if (e.get().fid() != fid) {
                continue;
            }
            int type = e.get().type();
            if (type == io.rdma.srq.verbs.ffi.fabric.Fabric.FI_CONNECTED()) {
                established = true;
                return Optional.of(new CmEvent(CmEventType.ESTABLISHED, 0, null, this));
            }
            if ((type == io.rdma.srq.verbs.ffi.fabric.Fabric.FI_SHUTDOWN() || type == FabricEq.ERROR) && markDown()) {
                return Optional.of(new CmEvent(CmEventType.DISCONNECTED, 0, null, this));
            }
        }
    }

    @Override
    protected void destroy() {
        established = false;
        if (listener != null) {
            listener.forget(this);
        }
    }
}
