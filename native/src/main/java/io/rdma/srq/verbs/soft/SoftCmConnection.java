package io.rdma.srq.verbs.soft;

import io.rdma.srq.verbs.spi.EventQueue;
import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.ConnectRejectedException;
import io.rdma.srq.verbs.ConnectionParameters;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.spi.ResourceBase;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;

/**
 * {@link CmConnection} of the soft rdma_cm: the QP stays the application's (as with the ibverbs
 * provider, which moves an application QP with rdma_init_qp_attr); connect and accept move it
 * RESET → RTS towards the peer QP on the soft fabric. {@link #disconnect()} queues DISCONNECTED on
 * both sides (the active side's own queue, the passive side's listener) and leaves the QPs' states
 * alone (rdma_disconnect(3) moves only a QP made with rdma_create_qp to ERROR). There is no
 * TIMEWAIT_EXIT.
 */
final class SoftCmConnection extends SoftResource implements CmConnection, SoftDevice.CmId {
    private final SoftQueuePair qp;
    private final InetSocketAddress remote;
    private final SoftCmListener listener;
    private final EventQueue<CmEvent> own;
    private volatile SoftCmConnection peer;
    private volatile boolean established;
    private volatile boolean disconnected;

    /**
     * @param parent   the listener (passive side) or the context (active side)
     * @param listener the listener for a passive connection, else null (the connection has its own
     *                 event queue)
     */
    SoftCmConnection(ResourceBase parent, SoftQueuePair qp, InetSocketAddress remote, SoftCmListener listener) {
        super(parent, "rdma_cm connection QP " + qp.qpNum() + " ↔ " + remote, "rdma_destroy_id", qp);
        this.qp = qp;
        this.remote = remote;
        this.listener = listener;
        this.own = listener == null ? new EventQueue<>() : null;
        qp.softContext().device().bound(this);
    }

    /** RDMA_CM_EVENT_DEVICE_REMOVAL for this id: on its listener's channel (passive) or its own (active). */
    @Override
    public void deviceRemoved() {
        deliver(new CmEvent(CmEventType.DEVICE_REMOVAL, 0, null, this));
    }

    /**
     * The active side: a CONNECT_REQUEST to the listener bound to {@code remote}, a wait for its
     * answer, then RESET → RTS towards the accepting QP.
     *
     * @param privateData the request's private data, at most 56 bytes (checked by the caller); the
     *                    listener sees it padded with zeros to 56 bytes, as the IB CM pads it
     * @throws VerbsException {@code EINVAL} for a QP of another context or not an RC QP in RESET;
     *                        {@code ECONNREFUSED} ({@link ConnectRejectedException}: status 8 with no
     *                        listener there, 28 with a full backlog or a reject, carrying the reject's
     *                        private data padded to 148 bytes);
     *                        {@code ETIMEDOUT} without an answer within {@code timeout}
     */
    static SoftCmConnection connect(SoftContext context, QueuePair qp, InetSocketAddress remote, Duration timeout,
                                    byte[] privateData, ConnectionParameters parameters) throws VerbsException {
        SoftQueuePair q = (SoftQueuePair) qp;
        SoftCmListener.Request r = request(context, qp, remote, timeout, privateData);
        SoftCmConnection server = r.serverConnection();
        try {
            q.connect(1, 0, r.serverEndpoint(), parameters);
            SoftCmConnection c = context.open(() -> new SoftCmConnection(context, q, remote, null));
            c.peer = server;
            server.peer = c;
            c.established = true;
            server.established = true;
            server.listener.queueEvent(new CmEvent(CmEventType.ESTABLISHED, 0, null, server));
            return c;
        } catch (RuntimeException e) {
            server.deliver(new CmEvent(CmEventType.CONNECT_ERROR, 0, null, server));
            throw e;
        }
    }

    /**
     * The active side up to the listener's accept (REQ, then REP): validates, queues the
     * CONNECT_REQUEST and waits for its answer.
     *
     * @return the accepted request (its server endpoint and connection)
     * @throws VerbsException as {@link #connect}
     */
    static SoftCmListener.Request request(SoftContext context, QueuePair qp, InetSocketAddress remote, Duration timeout,
                                          byte[] privateData) throws VerbsException {
        if (!(qp instanceof SoftQueuePair q) || q.softContext() != context) {
            throw new VerbsException("rdma_connect", Errno.EINVAL, "the QP must be created on this context "
                    + context.deviceName());
        }
        if (!q.isRcInReset()) {
            throw new VerbsException("rdma_connect", Errno.EINVAL, "the QP must be an RC QP in RESET");
        }
        if (remote.getAddress() == null) {
            throw new VerbsException("rdma_get_cm_event", Errno.EADDRNOTAVAIL,
                    "RDMA_CM_EVENT_ADDR_ERROR: unresolved address " + remote);
        }
        SoftCmListener l = SoftFabric.findListener(remote);
        InetSocketAddress self = new InetSocketAddress(context.device().ipv4Address(), SoftFabric.ephemeralPort());
        SoftCmListener.Request r = l == null ? null : l.offer(self, remote, q.localEndpoint(1, 0), privateData);
        if (r == null) {
            throw new ConnectRejectedException(l == null ? ConnectRejectedException.INVALID_SERVICE_ID
                    : ConnectRejectedException.CONSUMER_DEFINED, new byte[0], "while connecting to " + remote
                    + (l == null ? ": no listener there" : ": the listener's backlog is full or it is closing"));
        }
        switch (r.await(timeout)) {
            case ACCEPTED -> { }
            case REJECTED -> throw new ConnectRejectedException(ConnectRejectedException.CONSUMER_DEFINED,
                    r.rejectData(), "while connecting to " + remote);
            default -> throw new VerbsException("rdma_get_cm_event", Errno.ETIMEDOUT, "no CONNECT_RESPONSE within "
                    + timeout.toMillis() + " ms while connecting to " + remote);
        }
        return r;
    }

    /**
     * The passive side's CM gives up on a connection that never became ESTABLISHED: {@code type}
     * (UNREACHABLE, REJECTED or CONNECT_ERROR) with {@code status} on the listener.
     */
    void setupFailed(CmEventType type, int status) {
        deliver(new CmEvent(type, status, null, this));
    }

    private void deliver(CmEvent event) {
        if (listener != null) {
            listener.queueEvent(event);
        } else {
            own.add(event);
        }
    }

    @Override
    public QueuePair qp() {
        checkOpen();
        return qp;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        checkOpen();
        return remote;
    }

    @Override
    public boolean isEstablished() {
        checkOpen();
        return established && !disconnected;
    }

    /** rdma_disconnect(3): DISCONNECTED on both sides. Idempotent. */
    @Override
    public void disconnect() {
        checkOpen();
        disconnectQuietly();
    }

    private void disconnectQuietly() {
        if (disconnected) {
            return;
        }
        disconnected = true;
        deliver(new CmEvent(CmEventType.DISCONNECTED, 0, null, this));
        SoftCmConnection p = peer;
        if (p != null) {
            p.disconnectedByPeer();
        }
    }

    private void disconnectedByPeer() {
        if (disconnected || isClosed()) {
            return;
        }
        disconnected = true;
        deliver(new CmEvent(CmEventType.DISCONNECTED, 0, null, this));
    }

    /**
     * {@return the next event of an active connection (DISCONNECTED); empty for a passive one, whose
     *         events go to its listener}
     */
    @Override
    public Optional<CmEvent> nextEvent(Duration timeout) {
        checkOpen();
        return own == null ? Optional.empty() : own.take(timeout);
    }

    @Override
    protected void release() {
        qp.softContext().device().unbound(this);
        if (established) {
            disconnectQuietly();
        }
        if (own != null) {
            own.close();
        }
    }
}
