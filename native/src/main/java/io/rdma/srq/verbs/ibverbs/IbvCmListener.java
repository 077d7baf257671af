package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.verbs.spi.SockAddr;
import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.CmRequest;
import io.rdma.srq.verbs.ConnectionParameters;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.ffi.rdmacm.rdma_addr;
import io.rdma.srq.verbs.ffi.rdmacm.rdma_cm_id;
import io.rdma.srq.verbs.ffi.rdmacm.rdma_route;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** {@link CmListener} over a listening {@code rdma_cm_id} with its own event channel. */
final class IbvCmListener extends IbvResource implements CmListener {
    private final IbvContext context;
    private final CmChannel channel;
    private final InetSocketAddress local;
    private final Map<Long, IbvCmConnection> connections = new ConcurrentHashMap<>();
    private final Map<Long, Pending> pending = new ConcurrentHashMap<>();

    private IbvCmListener(IbvContext context, CmChannel channel, MemorySegment id, InetSocketAddress local) {
        super(context, "rdma_cm listener " + local + " on " + context.deviceName(), "rdma_destroy_id", id,
                rdma_cm_id.sizeof());
        this.context = context;
        this.channel = channel;
        this.local = local;
    }

    static IbvCmListener listen(IbvContext context, InetSocketAddress address, int backlog) throws VerbsException {
        if (backlog < 1) {
            throw new VerbsException("rdma_listen", Errno.EINVAL, "backlog must be ≥ 1, got " + backlog);
        }
        CmChannel channel = new CmChannel();
        MemorySegment id = null;
        try (Arena arena = Arena.ofConfined()) {
            id = channel.createId();
            NativeCall.status("rdma_bind_addr", address.toString(), CmChannel.H.BIND, null, id, SockAddr.of(address, arena));
            // the wildcard binds no device (rdma_bind_addr(3)): it listens on every RDMA device's addresses,
            // and nextEvent turns away the requests that reach another device than this context's
            if (!address.getAddress().isAnyLocalAddress()) {
                if (IbvCmConnection.deviceOf(id) == null) {
                    throw new VerbsException("rdma_bind_addr", Errno.EADDRNOTAVAIL, address + " is not an address of an "
                            + "RDMA device; listen on an address of " + context.deviceName() + "'s network interface"
                            + " or on the wildcard");
                }
                IbvCmConnection.checkDevice(id, context, "listen address " + address);
            }
            NativeCall.status("rdma_listen", address + " backlog " + backlog, CmChannel.H.LISTEN, null, id, backlog);
            MemorySegment route = rdma_cm_id.route(id.reinterpret(rdma_cm_id.sizeof()));
            InetSocketAddress bound = SockAddr.from(rdma_addr.src_addr(rdma_route.addr(route)));
            MemorySegment listening = id;
            return context.whileOpenCreate(() -> new IbvCmListener(context, channel, listening, bound));
        } catch (RuntimeException e) {
            channel.abandon(id, e);
            throw e;
        }
    }

    @Override
    public InetSocketAddress localAddress() {
        ensureOpen();
        return local;
    }

    @Override
    public Optional<CmEvent> nextEvent(Duration timeout) throws VerbsException {
        ensureOpen();
        Optional<CmChannel.Raw> next = channel.next(scope(), timeout);
        if (next.isEmpty()) {
            return Optional.empty();
        }
        CmChannel.Raw raw = next.get();
        if (raw.type() == CmEventType.CONNECT_REQUEST) {
            MemorySegment child = MemorySegment.ofAddress(raw.id()).reinterpret(rdma_cm_id.sizeof());
            InetSocketAddress remote = SockAddr.from(rdma_addr.dst_addr(rdma_route.addr(rdma_cm_id.route(child))));
            if (!context.deviceName().equals(IbvCmConnection.deviceOf(child))) {
                // a wildcard listener hears every device; a QP on the SRQ of this context's device cannot
                // take a request that arrived on another one
                rejectAndDestroy(child, remote, "another device");
                return Optional.empty();
            }
            InetSocketAddress at = SockAddr.from(rdma_addr.src_addr(rdma_route.addr(rdma_cm_id.route(child))));
            Pending p = new Pending(child, remote, at, raw.privateData());
            try {
                // held open while registered: destroy() either comes first or finds it among the pending
                whileOpenCreate(() -> pending.put(raw.id(), p));
            } catch (IllegalStateException closing) {
                rejectAndDestroy(child, remote, "the listener is closing");
                return Optional.empty();
            }
            return Optional.of(new CmEvent(raw.type(), raw.status(), p, null));
        }
        IbvCmConnection c = connections.get(raw.id());
        if (c != null) {
            switch (raw.type()) {
                case ESTABLISHED -> c.established();
                case DISCONNECTED -> c.disconnected();
                default -> { }
            }
        }
        return Optional.of(new CmEvent(raw.type(), raw.status(), null, c));
    }

    private static void rejectAndDestroy(MemorySegment child, InetSocketAddress remote, String why) {
        try {
            NativeCall.status("rdma_reject", "from " + remote + " (" + why + ")", CmChannel.H.REJECT, null, child,
                    MemorySegment.NULL, (byte) 0);
        } catch (VerbsException ignored) {
            // the requester times out instead; the id is destroyed either way
        }
        try {
            NativeCall.status("rdma_destroy_id", null, CmChannel.H.DESTROY_ID, null, child);
        } catch (VerbsException ignored) {
            // nothing more can be done for an id that will not go
        }
    }

    void forget(IbvCmConnection c) {
        connections.values().remove(c);
    }

    @Override
    protected void destroy() throws VerbsException {
        try {
            for (Pending p : pending.values()) {
                p.destroyId();
            }
            pending.clear();
            NativeCall.status("rdma_destroy_id", kind(), CmChannel.H.DESTROY_ID, null, raw());
        } finally {
            channel.destroy();
        }
    }

    /** A CONNECT_REQUEST's new id, until accepted or rejected. */
    private final class Pending implements CmRequest {
        private final MemorySegment id;
        private final InetSocketAddress remote;
        private final InetSocketAddress at;
        private final byte[] privateData;

        Pending(MemorySegment id, InetSocketAddress remote, InetSocketAddress at, byte[] privateData) {
            this.id = id;
            this.remote = remote;
            this.at = at;
            this.privateData = privateData;
        }

        @Override
        public InetSocketAddress remoteAddress() {
            return remote;
        }

        @Override
        public InetSocketAddress localAddress() {
            return at;
        }

        @Override
        public byte[] privateData() {
            return privateData.clone();
        }

        @Override
        public CmConnection accept(QueuePair qp, ConnectionParameters parameters) throws VerbsException {
            if (!(qp instanceof IbvQueuePair q) || q.ibvContext() != context) {
                throw new VerbsException("rdma_accept", Errno.EINVAL, "the QP must be created on the listener's context "
                        + context.deviceName());
            }
            if (pending.remove(id.address()) == null) {
                throw new IllegalStateException("connection request from " + remote + " was already answered");
            }
            try {
                IbvCmConnection c = whileOpenCreate(() -> IbvCmConnection.accept(IbvCmListener.this, id, q, remote,
                        java.util.Objects.requireNonNull(parameters, "parameters")));
                connections.put(id.address(), c);
                return c;
            } catch (RuntimeException e) {
                destroyId();
                throw e;
            }
        }

        @Override
        public void reject(byte[] data) throws VerbsException {
            if (data.length > MAX_REJECT_PRIVATE_DATA) {
                throw new VerbsException("rdma_reject", Errno.EINVAL, "private data of " + data.length
                        + " bytes; a reject carries at most " + MAX_REJECT_PRIVATE_DATA);
            }
            if (pending.remove(id.address()) == null) {
                throw new IllegalStateException("connection request from " + remote + " was already answered");
            }
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment pd = data.length == 0 ? MemorySegment.NULL : arena.allocateFrom(ValueLayout.JAVA_BYTE, data);
                NativeCall.status("rdma_reject", "from " + remote, CmChannel.H.REJECT, null, id, pd, (byte) data.length);
            } finally {
                destroyId();
            }
        }

        void destroyId() {
            try {
                NativeCall.status("rdma_destroy_id", null, CmChannel.H.DESTROY_ID, null, id);
            } catch (VerbsException ignored) {
                // nothing more can be done for an id that will not go
            }
        }
    }
}
