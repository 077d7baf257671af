package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.verbs.spi.SockAddr;
import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.ConnectionParameters;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.ffi.ibverbs.IbVerbs;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_ah_attr;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_context;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_global_route;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_qp_attr;
import io.rdma.srq.verbs.ffi.rdmacm.rdma_cm_id;
import io.rdma.srq.verbs.ffi.rdmacm.rdma_conn_param;
import io.rdma.srq.verbs.spi.ResourceBase;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;

/**
 * {@link CmConnection} over an {@code rdma_cm_id} whose QP the application created: the QP is moved
 * through its states with rdma_init_qp_attr(3) + ibv_modify_qp(3), and rdma_accept/rdma_connect
 * carry its qp_num (the way MPI libraries and UCX use rdma_cm with their own QPs).
 */
final class IbvCmConnection extends IbvResource implements CmConnection {
    private final IbvQueuePair qp;
    private final InetSocketAddress remote;
    private final CmChannel ownChannel;
    private final IbvCmListener listener;
    private volatile boolean established;
    private volatile boolean disconnected;

    private IbvCmConnection(ResourceBase parent, MemorySegment id, IbvQueuePair qp, InetSocketAddress remote,
                            CmChannel ownChannel) {
        super(parent, "rdma_cm connection QP " + qp.qpNum() + " ↔ " + remote, "rdma_destroy_id", id,
                rdma_cm_id.sizeof(), qp);
        this.qp = qp;
        this.remote = remote;
        this.ownChannel = ownChannel;
        this.listener = parent instanceof IbvCmListener l ? l : null;
    }

    /** Device name of the context an id is bound to, or null. */
    static String deviceOf(MemorySegment id) {
        MemorySegment verbs = rdma_cm_id.verbs(id.reinterpret(rdma_cm_id.sizeof()));
        if (verbs.address() == 0) {
            return null;
        }
        MemorySegment device = ibv_context.device(verbs.reinterpret(ibv_context.sizeof()));
        return IbVerbs.ibv_get_device_name(device).reinterpret(Integer.MAX_VALUE).getString(0);
    }

    /** RNR NAK timer code 12: a sender retries after 0.64 ms (IB spec table 45), as perftest's QPs do. */
    static final byte MIN_RNR_TIMER = 12;

    /**
     * rdma_init_qp_attr(3) for {@code state}, then ibv_modify_qp(3). At RTR the responder's
     * min_rnr_timer is set to {@value #MIN_RNR_TIMER} (0.64 ms): the kernel CM hands out 0, which
     * means 655 ms, so a sender meeting a momentarily empty SRQ would stall for most of a second; a
     * traffic class of {@code parameters} replaces {@code ah_attr.grh.traffic_class}. At RTS
     * {@code parameters} set timeout (when given), retry_cnt and rnr_retry: without
     * rdma_set_option(3) in the bindings this is where they reach the QP.
     */
    static void move(MemorySegment id, IbvQueuePair qp, int state, String name, ConnectionParameters parameters)
            throws VerbsException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_qp_attr.layout());
            MemorySegment mask = arena.allocate(ValueLayout.JAVA_INT);
            ibv_qp_attr.qp_state(attr, state);
            NativeCall.status("rdma_init_qp_attr", "QP " + qp.qpNum() + " to " + name, CmChannel.H.INIT_QP_ATTR, null,
                    id, attr, mask);
            int m = mask.get(ValueLayout.JAVA_INT, 0);
            if (state == IbVerbs.IBV_QPS_RTR()) {
                ibv_qp_attr.min_rnr_timer(attr, MIN_RNR_TIMER);
                m |= IbVerbs.IBV_QP_MIN_RNR_TIMER();
                if (parameters.trafficClass().isPresent()) {
                    ibv_global_route.traffic_class(ibv_ah_attr.grh(ibv_qp_attr.ah_attr(attr)),
                            (byte) parameters.trafficClass().getAsInt());
                }
            } else if (state == IbVerbs.IBV_QPS_RTS()) {
                if (parameters.ackTimeout().isPresent()) {
                    ibv_qp_attr.timeout(attr, (byte) parameters.ackTimeout().getAsInt());
                    m |= IbVerbs.IBV_QP_TIMEOUT();
                }
                ibv_qp_attr.retry_cnt(attr, (byte) parameters.retryCount());
                ibv_qp_attr.rnr_retry(attr, (byte) parameters.rnrRetryCount());
                m |= IbVerbs.IBV_QP_RETRY_CNT() | IbVerbs.IBV_QP_RNR_RETRY();
            }
            qp.modify(attr, m, name);
        }
    }

    /** The connection parameters, with {@code privateData} (at most 255 bytes, checked by the caller) copied into {@code arena}. */
    static MemorySegment connParam(Arena arena, IbvQueuePair qp, byte[] privateData, ConnectionParameters parameters) {
        MemorySegment p = arena.allocate(rdma_conn_param.layout());
        if (privateData.length > 0) {
            rdma_conn_param.private_data(p, arena.allocateFrom(ValueLayout.JAVA_BYTE, privateData));
            rdma_conn_param.private_data_len(p, (byte) privateData.length);
        }
        rdma_conn_param.responder_resources(p, (byte) 1);
        rdma_conn_param.initiator_depth(p, (byte) 1);
        rdma_conn_param.retry_count(p, (byte) parameters.retryCount());
        rdma_conn_param.rnr_retry_count(p, (byte) parameters.rnrRetryCount());
        rdma_conn_param.srq(p, (byte) (qp.srq() == null ? 0 : 1));
        rdma_conn_param.qp_num(p, qp.qpNum());
        return p;
    }

    static void checkDevice(MemorySegment id, IbvContext context, String what) throws VerbsException {
        String device = deviceOf(id);
        if (!context.deviceName().equals(device)) {
            throw new VerbsException("rdma_cm", Errno.EINVAL, what + " belongs to device " + device + ", not "
                    + context.deviceName() + " (the QP's and the SRQ's device)");
        }
    }

    /** Passive side: INIT, RTR, RTS, rdma_accept. */
    static IbvCmConnection accept(IbvCmListener listener, MemorySegment id, IbvQueuePair qp, InetSocketAddress remote,
                                  ConnectionParameters parameters) throws VerbsException {
        move(id, qp, IbVerbs.IBV_QPS_INIT(), "INIT", parameters);
        move(id, qp, IbVerbs.IBV_QPS_RTR(), "RTR", parameters);
        move(id, qp, IbVerbs.IBV_QPS_RTS(), "RTS", parameters);
        try (Arena arena = Arena.ofConfined()) {
            NativeCall.status("rdma_accept", "QP " + qp.qpNum() + " from " + remote, CmChannel.H.ACCEPT, null, id,
                    connParam(arena, qp, new byte[0], parameters));
        }
        return new IbvCmConnection(listener, id, qp, remote, null);
    }

    /**
     * Active side: resolve address and route, INIT, connect (with {@code privateData}), RTR, RTS,
     * rdma_establish. A REJECTED answer is a {@link io.rdma.srq.verbs.ConnectRejectedException}.
     */
    static IbvCmConnection connect(IbvContext context, IbvQueuePair qp, InetSocketAddress remote, Duration timeout,
                                   byte[] privateData, ConnectionParameters parameters) throws VerbsException {
        CmChannel channel = new CmChannel();
        MemorySegment id = null;
        try {
            id = channel.createId();
            int ms = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
            try (Arena arena = Arena.ofConfined()) {
                NativeCall.status("rdma_resolve_addr", remote.toString(), CmChannel.H.RESOLVE_ADDR, null, id,
                        MemorySegment.NULL, SockAddr.of(remote, arena), ms);
                channel.await(id.address(), CmEventType.ADDR_RESOLVED, timeout, "resolving " + remote);
                checkDevice(id, context, "address " + remote);
                NativeCall.status("rdma_resolve_route", remote.toString(), CmChannel.H.RESOLVE_ROUTE, null, id, ms);
                channel.await(id.address(), CmEventType.ROUTE_RESOLVED, timeout, "resolving the route to " + remote);
                move(id, qp, IbVerbs.IBV_QPS_INIT(), "INIT", parameters);
                NativeCall.status("rdma_connect", remote.toString(), CmChannel.H.CONNECT, null, id,
                        connParam(arena, qp, privateData, parameters));
                channel.await(id.address(), CmEventType.CONNECT_RESPONSE, timeout, "connecting to " + remote);
                move(id, qp, IbVerbs.IBV_QPS_RTR(), "RTR", parameters);
                move(id, qp, IbVerbs.IBV_QPS_RTS(), "RTS", parameters);
                NativeCall.status("rdma_establish", remote.toString(), CmChannel.H.ESTABLISH, null, id);
            }
            MemorySegment established = id;
            IbvCmConnection c = context.whileOpenCreate(() -> new IbvCmConnection(context, established, qp, remote, channel));
            c.established = true;
            return c;
        } catch (RuntimeException e) {
            channel.abandon(id, e);
            throw e;
        }
    }

    void established() {
        established = true;
    }

    /**
     * DISCONNECTED arrived. If the peer started it, reply with rdma_disconnect(3) (the DREP):
     * otherwise the peer waits for its DREQ to time out before it sees DISCONNECTED.
     */
    void disconnected() {
        established = false;
        if (!disconnected) {
            disconnected = true;
            try {
                NativeCall.status("rdma_disconnect", kind() + " (reply)", CmChannel.H.DISCONNECT, null, handle());
            } catch (VerbsException | IllegalStateException e) {
                // the id is gone or already disconnected: nothing to reply to
            }
        }
    }

    @Override
    public QueuePair qp() {
        ensureOpen();
        return qp;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        ensureOpen();
        return remote;
    }

    @Override
    public boolean isEstablished() {
        ensureOpen();
        return established;
    }

    @Override
    public void disconnect() throws VerbsException {
        ensureOpen();
        if (disconnected) {
            return;
        }
        disconnected = true;
        NativeCall.status("rdma_disconnect", kind(), CmChannel.H.DISCONNECT, null, handle());
    }

    @Override
    public Optional<CmEvent> nextEvent(Duration timeout) throws VerbsException {
        ensureOpen();
        if (ownChannel == null) {
            return Optional.empty();
        }
        Optional<CmChannel.Raw> raw = ownChannel.next(scope(), timeout);
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        if (raw.get().type() == CmEventType.DISCONNECTED) {
            disconnected();
        }
        return Optional.of(new CmEvent(raw.get().type(), raw.get().status(), null, this));
    }

    @Override
    protected void destroy() throws VerbsException {
        try {
            if (established && !disconnected) {
                disconnected = true;
                NativeCall.status("rdma_disconnect", kind(), CmChannel.H.DISCONNECT, null, raw());
            }
        } catch (VerbsException ignored) {
            // the peer may be gone already; the id is destroyed regardless
        } finally {
            try {
                NativeCall.status("rdma_destroy_id", kind(), CmChannel.H.DESTROY_ID, null, raw());
            } finally {
                if (ownChannel != null) {
                    ownChannel.destroy();
                }
                if (listener != null) {
                    listener.forget(this);
                }
            }
        }
    }
}
