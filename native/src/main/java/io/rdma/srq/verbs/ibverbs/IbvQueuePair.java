package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.ConnectionParameters;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.RcEndpoint;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.ffi.ibverbs.IbVerbs;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_ah_attr;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_context_ops;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_global_route;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_qp;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_qp_attr;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_qp_cap;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_qp_init_attr;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_send_wr;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_sge;
import io.rdma.srq.verbs.NetworkOrder;
import io.rdma.srq.verbs.spi.ResourceBase;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.ThreadLocalRandom;

/** {@link QueuePair} over {@code struct ibv_qp}; sends through the context's {@code ops.post_send}. */
final class IbvQueuePair extends IbvResource implements QueuePair {
    private static final MethodHandle CREATE = NativeCall.capturing(
            IbVerbs.ibv_create_qp$address(), IbVerbs.ibv_create_qp$descriptor());
    private static final MethodHandle MODIFY = NativeCall.capturing(
            IbVerbs.ibv_modify_qp$address(), IbVerbs.ibv_modify_qp$descriptor());
    private static final MethodHandle DESTROY = NativeCall.capturing(
            IbVerbs.ibv_destroy_qp$address(), IbVerbs.ibv_destroy_qp$descriptor());
    private static final MethodHandle QUERY = NativeCall.capturing(
            IbVerbs.ibv_query_qp$address(), IbVerbs.ibv_query_qp$descriptor());

    private final IbvContext context;
    private final SharedReceiveQueue srq;
    private final int qpNum;
    private final int psn = ThreadLocalRandom.current().nextInt(1 << 24);
    private final MemorySegment postSend;
    private final Arena sendArena = Arena.ofShared();
    private final MemorySegment sendWr = sendArena.allocate(ibv_send_wr.layout());
    private final MemorySegment sendSge = sendArena.allocate(ibv_sge.layout());
    private final MemorySegment badWr = sendArena.allocate(ValueLayout.ADDRESS);

    private IbvQueuePair(IbvProtectionDomain pd, MemorySegment qp, QpInitAttributes init, ResourceBase... uses) {
        super(pd, "QP on " + pd.ibvContext().deviceName(), "ibv_destroy_qp", qp, ibv_qp.sizeof(), uses);
        this.context = pd.ibvContext();
        this.srq = init.srq();
        this.qpNum = ibv_qp.qp_num(handle());
        this.postSend = context.ops().postSend;
        ibv_send_wr.sg_list(sendWr, sendSge);
        ibv_send_wr.num_sge(sendWr, 1);
        context.register(this);
    }

    static IbvQueuePair create(IbvProtectionDomain pd, QpInitAttributes init) throws VerbsException {
        IbvCompletionQueue sendCq = (IbvCompletionQueue) init.sendCq();
        IbvCompletionQueue recvCq = (IbvCompletionQueue) init.recvCq();
        IbvSharedReceiveQueue srq = (IbvSharedReceiveQueue) init.srq();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(ibv_qp_init_attr.layout());
            ibv_qp_init_attr.send_cq(a, sendCq.handle());
            ibv_qp_init_attr.recv_cq(a, recvCq.handle());
            ibv_qp_init_attr.srq(a, srq == null ? MemorySegment.NULL : srq.handle());
            MemorySegment cap = ibv_qp_init_attr.cap(a);
            ibv_qp_cap.max_send_wr(cap, init.maxSendWr());
            ibv_qp_cap.max_recv_wr(cap, init.maxRecvWr());
            ibv_qp_cap.max_send_sge(cap, init.maxSendSge());
            ibv_qp_cap.max_recv_sge(cap, init.maxRecvSge());
            ibv_qp_cap.max_inline_data(cap, init.maxInlineData());
            ibv_qp_init_attr.qp_type(a, init.type().code());
            MemorySegment qp = NativeCall.pointer("ibv_create_qp", init.type() + " max_send_wr " + init.maxSendWr()
                    + (srq == null ? "" : " on " + srq.kind()), CREATE, null, pd.handle(), a);
            return srq == null ? new IbvQueuePair(pd, qp, init, sendCq, recvCq)
                    : new IbvQueuePair(pd, qp, init, sendCq, recvCq, srq);
        }
    }

    IbvContext ibvContext() {
        return context;
    }

    @Override
    public int qpNum() {
        ensureOpen();
        return qpNum;
    }

    @Override
    public SharedReceiveQueue srq() {
        ensureOpen();
        return srq;
    }

    @Override
    public RcEndpoint localEndpoint(int port, int gidIndex) throws VerbsException {
        ensureOpen();
        int lid = context.queryPort(port).lid();
        return new RcEndpoint(qpNum, psn, lid, context.queryGid(port, gidIndex));
    }

    @Override
    public void connect(int port, int gidIndex, RcEndpoint remote) throws VerbsException {
        connect(port, gidIndex, remote, 7);
    }

    /**
     * As {@link #connect(int, int, RcEndpoint)} with an explicit rnr_retry.
     *
     * @param rnrRetry 0..7; 7 retries forever, smaller values end in IBV_WC_RNR_RETRY_EXC_ERR when
     *                 the peer's SRQ stays empty
     */
    @Override
    public void connect(int port, int gidIndex, RcEndpoint remote, int rnrRetry) throws VerbsException {
        ensureOpen();
        if (rnrRetry < 0 || rnrRetry > 7) {
            throw new VerbsException("ibv_modify_qp", Errno.EINVAL, "rnr_retry must be in 0..7, got " + rnrRetry);
        }
        int mtu = context.queryPort(port).activeMtu();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(ibv_qp_attr.layout());
            ibv_qp_attr.qp_state(a, IbVerbs.IBV_QPS_INIT());
            ibv_qp_attr.pkey_index(a, (short) 0);
            ibv_qp_attr.port_num(a, (byte) port);
            ibv_qp_attr.qp_access_flags(a, 0);
            modify(a, IbVerbs.IBV_QP_STATE() | IbVerbs.IBV_QP_PKEY_INDEX() | IbVerbs.IBV_QP_PORT()
                    | IbVerbs.IBV_QP_ACCESS_FLAGS(), "INIT");

            a.fill((byte) 0);
            ibv_qp_attr.qp_state(a, IbVerbs.IBV_QPS_RTR());
            ibv_qp_attr.path_mtu(a, mtu);
            ibv_qp_attr.dest_qp_num(a, remote.qpNum());
            ibv_qp_attr.rq_psn(a, remote.psn());
            ibv_qp_attr.max_dest_rd_atomic(a, (byte) 1);
            ibv_qp_attr.min_rnr_timer(a, IbvCmConnection.MIN_RNR_TIMER);
            MemorySegment ah = ibv_qp_attr.ah_attr(a);
            ibv_ah_attr.dlid(ah, (short) remote.lid());
            ibv_ah_attr.is_global(ah, (byte) 1);
            ibv_ah_attr.port_num(ah, (byte) port);
            MemorySegment grh = ibv_ah_attr.grh(ah);
            MemorySegment.copy(remote.gid(), 0, ibv_global_route.dgid(grh), ValueLayout.JAVA_BYTE, 0, 16);
            ibv_global_route.sgid_index(grh, (byte) gidIndex);
            ibv_global_route.hop_limit(grh, (byte) 1);
            modify(a, IbVerbs.IBV_QP_STATE() | IbVerbs.IBV_QP_AV() | IbVerbs.IBV_QP_PATH_MTU()
                    | IbVerbs.IBV_QP_DEST_QPN() | IbVerbs.IBV_QP_RQ_PSN() | IbVerbs.IBV_QP_MAX_DEST_RD_ATOMIC()
                    | IbVerbs.IBV_QP_MIN_RNR_TIMER(), "RTR");

            a.fill((byte) 0);
            ibv_qp_attr.qp_state(a, IbVerbs.IBV_QPS_RTS());
            ibv_qp_attr.timeout(a, (byte) 14);
            ibv_qp_attr.retry_cnt(a, (byte) 7);
            ibv_qp_attr.rnr_retry(a, (byte) rnrRetry);
            ibv_qp_attr.sq_psn(a, psn);
            ibv_qp_attr.max_rd_atomic(a, (byte) 1);
            modify(a, IbVerbs.IBV_QP_STATE() | IbVerbs.IBV_QP_TIMEOUT() | IbVerbs.IBV_QP_RETRY_CNT()
                    | IbVerbs.IBV_QP_RNR_RETRY() | IbVerbs.IBV_QP_SQ_PSN() | IbVerbs.IBV_QP_MAX_QP_RD_ATOMIC(), "RTS");
        }
    }

    @Override
    public void moveToError() throws VerbsException {
        ensureOpen();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(ibv_qp_attr.layout());
            ibv_qp_attr.qp_state(a, IbVerbs.IBV_QPS_ERR());
            modify(a, IbVerbs.IBV_QP_STATE(), "ERR");
        }
    }

    @Override
    public ConnectionParameters queryConnectionParameters() throws VerbsException {
        ensureOpen();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(ibv_qp_attr.layout());
            MemorySegment init = arena.allocate(ibv_qp_init_attr.layout());
            NativeCall.status("ibv_query_qp", kind() + " " + qpNum, QUERY, null, handle(), a,
                    IbVerbs.IBV_QP_AV() | IbVerbs.IBV_QP_TIMEOUT() | IbVerbs.IBV_QP_RETRY_CNT()
                            | IbVerbs.IBV_QP_RNR_RETRY(), init);
            return new ConnectionParameters(
                    java.util.OptionalInt.of(Byte.toUnsignedInt(ibv_global_route.traffic_class(
                            ibv_ah_attr.grh(ibv_qp_attr.ah_attr(a))))),
                    java.util.OptionalInt.of(Byte.toUnsignedInt(ibv_qp_attr.timeout(a)) & 31),
                    Byte.toUnsignedInt(ibv_qp_attr.retry_cnt(a)) & 7, Byte.toUnsignedInt(ibv_qp_attr.rnr_retry(a)) & 7);
        }
    }

    void modify(MemorySegment attr, int mask, String state) throws VerbsException {
        NativeCall.status("ibv_modify_qp", kind() + " " + qpNum + " to " + state, MODIFY, null, handle(), attr, mask);
    }

    @Override
    public synchronized void postSend(long wrId, MemoryRegion mr, long offset, int length, Integer imm)
            throws VerbsException {
        MemorySegment qp = handle();
        if (!(mr instanceof IbvMemoryRegion m)) {
            throw new VerbsException("ibv_post_send", Errno.EINVAL, "the MR is not registered through libibverbs");
        }
        // a closed MR is not refused here: the device completes the send with an error (its lkey is stale; driver note 20)
        if (offset < 0 || length < 0 || offset + length > m.size()) {
            throw new VerbsException("ibv_post_send", Errno.EINVAL, "message [" + offset + ", +" + length
                    + ") outside the MR of " + m.size() + " bytes");
        }
        ibv_send_wr.wr_id(sendWr, wrId);
        ibv_send_wr.next(sendWr, MemorySegment.NULL);
        ibv_send_wr.opcode(sendWr, imm == null ? IbVerbs.IBV_WR_SEND() : IbVerbs.IBV_WR_SEND_WITH_IMM());
        ibv_send_wr.send_flags(sendWr, IbVerbs.IBV_SEND_SIGNALED());
        ibv_send_wr.imm_data(sendWr, imm == null ? 0 : NetworkOrder.swap32(imm));
        ibv_sge.addr(sendSge, m.start() + offset);
        ibv_sge.length(sendSge, length);
        ibv_sge.lkey(sendSge, m.key());
        int rc = ibv_context_ops.post_send.invoke(postSend, qp, sendWr, badWr);
        if (rc != 0) {
            throw new VerbsException("ibv_post_send", Math.abs(rc), kind() + " " + qpNum);
        }
    }

    @Override
    protected void destroy() throws VerbsException {
        context.unregister(this);
        try {
            NativeCall.status("ibv_destroy_qp", kind() + " " + qpNum, DESTROY, null, raw());
        } finally {
            sendArena.close();
        }
    }
}
