package io.rdma.srq.verbs.soft;

import io.rdma.srq.verbs.spi.EventQueue;
import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.CmRequest;
import io.rdma.srq.verbs.ConnectionParameters;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.RcEndpoint;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link CmListener} of the soft rdma_cm: a listening id bound to an address of the soft host
 * ({@link SoftAddresses}: loopback, the soft devices' own, the configured CIDRs; {@code 0.0.0.0} /
 * {@code ::} listen on all), any other refused with EADDRNOTAVAIL as rdma_bind_addr(3) refuses it. Events:
 * CONNECT_REQUEST for each {@link io.rdma.srq.verbs.Context#connect} of a soft QP to this address,
 * then ESTABLISHED and DISCONNECTED of the connections it accepted.
 */
final class SoftCmListener extends SoftResource implements CmListener, SoftDevice.CmId {
    private final SoftContext context;
    private final InetSocketAddress local;
    private final int backlog;
    private final EventQueue<CmEvent> events = new EventQueue<>();
    private final Set<Request> pending = ConcurrentHashMap.newKeySet();

    SoftCmListener(SoftContext context, InetSocketAddress local, int backlog) {
        super(context, "rdma_cm listener " + local + " on " + context.deviceName(), "rdma_destroy_id");
        this.context = context;
        this.local = local;
        this.backlog = backlog;
        if (!local.getAddress().isAnyLocalAddress()) {
            context.device().bound(this); // a wildcard listen binds no device (rdma_bind_addr(3))
        }
    }

    /** RDMA_CM_EVENT_DEVICE_REMOVAL for the listening id itself (no connection). */
    @Override
    public void deviceRemoved() {
        events.add(new CmEvent(CmEventType.DEVICE_REMOVAL, 0, null, null));
    }

    /**
     * rdma_bind_addr(3) + rdma_listen(3).
     *
     * @throws VerbsException {@code EINVAL} for a backlog below 1, {@code EADDRNOTAVAIL} for an address
     *                        no soft netdev has ({@link SoftAddresses}), {@code EADDRINUSE} if a soft
     *                        listener holds the port on that address (or on the wildcard address)
     */
    static SoftCmListener listen(SoftContext context, InetSocketAddress address, int backlog) throws VerbsException {
        if (backlog < 1) {
            throw new VerbsException("rdma_listen", Errno.EINVAL, "backlog must be ≥ 1, got " + backlog);
        }
        if (address.getAddress() == null) {
            throw new VerbsException("rdma_bind_addr", Errno.EADDRNOTAVAIL, "unresolved address " + address);
        }
        if (!SoftAddresses.owned(address.getAddress())) {
            throw new VerbsException("rdma_bind_addr", Errno.EADDRNOTAVAIL, address + " is not an address of an RDMA "
                    + "device; the soft host has " + SoftAddresses.describe());
        }
        return SoftFabric.bindListener(address, bound -> context.open(() -> new SoftCmListener(context, bound, backlog)));
    }

    SoftContext softContext() {
        return context;
    }

    @Override
    public InetSocketAddress localAddress() {
        checkOpen();
        return local;
    }

    /**
     * {@return events in order; empty on timeout or when the listener closes. The connection of an
     *         event is {@code null} once it is closed (as the ibverbs provider, which forgets a
     *         destroyed id, reports it)}
     */
    @Override
    public Optional<CmEvent> nextEvent(Duration timeout) {
        checkOpen();
        return events.take(timeout).map(e -> e.connection() == null || !e.connection().isClosed() ? e
                : new CmEvent(e.type(), e.status(), e.request(), null));
    }

    void queueEvent(CmEvent event) {
        events.add(event);
    }

    /**
     * A connect arrives: queues CONNECT_REQUEST.
     *
     * @return the request, or null if the listener is closed or its backlog is full (the connect is
     *         then rejected, as a real CM rejects when the listen queue overflows)
     */
    Request offer(InetSocketAddress from, InetSocketAddress to, RcEndpoint clientEndpoint, byte[] privateData) {
        try {
            // held open while the request is registered: a close either comes first (no request) or
            // after, and then rejects it with the others still pending
            return open(() -> {
                if (pending.size() >= backlog) {
                    return null;
                }
                Request r = new Request(from, to, clientEndpoint, padded(privateData, CmRequest.MAX_CONNECT_PRIVATE_DATA));
                pending.add(r);
                events.add(new CmEvent(CmEventType.CONNECT_REQUEST, 0, r, null));
                return r;
            });
        } catch (IllegalStateException | VerbsException closed) {
            return null;
        }
    }

    @Override
    protected void release() {
        context.device().unbound(this);
        SoftFabric.unbindListener(this);
        for (Request r : pending) {
            r.answer(State.REJECTED, null, null);
        }
        pending.clear();
        events.close();
    }

    /**
     * {@return {@code data} zero-padded to {@code size}: the IB CM carries fixed-size private data in
     *          its REQ and REJ MADs, and rdma_cm reports the whole field (driver note 19)}
     */
    static byte[] padded(byte[] data, int size) {
        return Arrays.copyOf(data, Math.max(size, data.length));
    }

    enum State { PENDING, ACCEPTED, REJECTED, ABANDONED }

    /** A CONNECT_REQUEST until accepted, rejected, or abandoned by the connecting side's timeout. */
    final class Request implements CmRequest {
        private final InetSocketAddress from;
        private final InetSocketAddress to;
        private final RcEndpoint clientEndpoint;
        private final byte[] privateData;
        private State state = State.PENDING;
        private byte[] rejectData = new byte[0];
        private RcEndpoint serverEndpoint;
        private SoftCmConnection serverConnection;

        Request(InetSocketAddress from, InetSocketAddress to, RcEndpoint clientEndpoint, byte[] privateData) {
            this.from = from;
            this.to = to;
            this.clientEndpoint = clientEndpoint;
            this.privateData = privateData;
        }

        @Override
        public InetSocketAddress remoteAddress() {
            return from;
        }

        /** {@return the address the connect named} */
        @Override
        public InetSocketAddress localAddress() {
            return to;
        }

        /** {@return the connect's private data, zero-padded to 56 bytes as on IB and RoCE} */
        @Override
        public byte[] privateData() {
            return privateData.clone();
        }

        /**
         * Connects {@code qp} to the requesting QP (RESET → RTS) and answers; ESTABLISHED follows on
         * the listener when the connecting side has connected its QP.
         *
         * @throws VerbsException {@code EINVAL} for a QP of another context or not an RC QP in RESET;
         *                        {@code ECONNABORTED} if the connecting side gave up (its timeout)
         * @throws IllegalStateException if the request was already answered
         */
        @Override
        public CmConnection accept(QueuePair qp, ConnectionParameters parameters) throws VerbsException {
            if (!(qp instanceof SoftQueuePair q) || q.softContext() != context) {
                throw new VerbsException("rdma_accept", Errno.EINVAL, "the QP must be created on the listener's context "
                        + context.deviceName());
            }
            synchronized (this) {
                checkPending();
            }
            q.connect(1, 0, clientEndpoint, java.util.Objects.requireNonNull(parameters, "parameters"));
            SoftCmConnection c = open(() -> new SoftCmConnection(SoftCmListener.this, q, from, SoftCmListener.this));
            if (!answer(State.ACCEPTED, q.localEndpoint(1, 0), c)) {
                c.close();
                throw new VerbsException("rdma_accept", Errno.ECONNABORTED, "the connect from " + from
                        + " gave up before the accept");
            }
            return c;
        }

        /**
         * rdma_reject(3): the connecting side fails with {@link io.rdma.srq.verbs.ConnectRejectedException}
         * carrying {@code data} padded to 148 bytes.
         *
         * @throws VerbsException {@code EINVAL} for more than 148 bytes
         */
        @Override
        public void reject(byte[] data) throws VerbsException {
            if (data.length > CmRequest.MAX_REJECT_PRIVATE_DATA) {
                throw new VerbsException("rdma_reject", Errno.EINVAL, "private data of " + data.length
                        + " bytes; a reject carries at most " + CmRequest.MAX_REJECT_PRIVATE_DATA);
            }
            synchronized (this) {
                rejectData = padded(data, CmRequest.MAX_REJECT_PRIVATE_DATA);
                if (state == State.ABANDONED) {
                    pending.remove(this);
                    return;
                }
                if (state != State.PENDING) {
                    throw new IllegalStateException("connection request from " + from + " was already answered");
                }
            }
            answer(State.REJECTED, null, null);
        }

        private void checkPending() throws VerbsException {
            if (state == State.ABANDONED) {
                pending.remove(this);
                throw new VerbsException("rdma_accept", Errno.ECONNABORTED, "the connect from " + from
                        + " gave up before the accept");
            }
            if (state != State.PENDING) {
                throw new IllegalStateException("connection request from " + from + " was already answered");
            }
        }

        /** {@return false if the request was no longer pending} */
        synchronized boolean answer(State answer, RcEndpoint server, SoftCmConnection connection) {
            pending.remove(this);
            if (state != State.PENDING) {
                return false;
            }
            state = answer;
            serverEndpoint = server;
            serverConnection = connection;
            notifyAll();
            return true;
        }

        /** The connecting side waits at most {@code timeout}; a request still pending is abandoned. */
        synchronized State await(Duration timeout) {
            long deadline = System.nanoTime() + SoftContext.toNanos(timeout);
            try {
                while (state == State.PENDING) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        break;
                    }
                    wait(Math.max(1, left / 1_000_000), 0);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (state == State.PENDING) {
                state = State.ABANDONED;
                pending.remove(this);
            }
            return state;
        }

        synchronized byte[] rejectData() {
            return rejectData.clone();
        }

        synchronized RcEndpoint serverEndpoint() {
            return serverEndpoint;
        }

        synchronized SoftCmConnection serverConnection() {
            return serverConnection;
        }
    }
}
