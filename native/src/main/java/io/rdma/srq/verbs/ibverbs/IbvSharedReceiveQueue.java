package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.PostReceiveException;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.ffi.ibverbs.IbVerbs;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_srq;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_srq_attr;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_srq_init_attr;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_srq_init_attr_ex;
import io.rdma.srq.verbs.spi.ResourceBase;
import io.rdma.srq.verbs.spi.SrqAttributeCache;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * {@link SharedReceiveQueue} over {@code struct ibv_srq}. Receives are posted through the context's
 * {@code ops.post_srq_recv}. Close refuses with EBUSY while QPs are attached, because rxe lets the
 * destroy through (driver note 7).
 */
final class IbvSharedReceiveQueue extends IbvResource implements SharedReceiveQueue {
    private static final MethodHandle CREATE = NativeCall.capturing(
            IbVerbs.ibv_create_srq$address(), IbVerbs.ibv_create_srq$descriptor());
    private static final MethodHandle MODIFY = NativeCall.capturing(
            IbVerbs.ibv_modify_srq$address(), IbVerbs.ibv_modify_srq$descriptor());
    private static final MethodHandle QUERY = NativeCall.capturing(
            IbVerbs.ibv_query_srq$address(), IbVerbs.ibv_query_srq$descriptor());
    private static final MethodHandle DESTROY = NativeCall.capturing(
            IbVerbs.ibv_destroy_srq$address(), IbVerbs.ibv_destroy_srq$descriptor());

    private final IbvContext context;
    private final MemorySegment postSrqRecv;
    private final boolean xrc;
    private final SrqAttributeCache attributes;

    private IbvSharedReceiveQueue(IbvProtectionDomain pd, MemorySegment srq, SrqAttributes actual, boolean xrc,
                                  ResourceBase... uses) {
        super(pd, (xrc ? "XRC SRQ" : "SRQ") + " on " + pd.ibvContext().deviceName(), "ibv_destroy_srq", srq,
                ibv_srq.sizeof(), uses);
        this.context = pd.ibvContext();
        this.postSrqRecv = context.ops().postSrqRecv;
        this.xrc = xrc;
        this.attributes = new SrqAttributeCache(this::queryNow, actual);
        context.register(this);
    }

    static IbvSharedReceiveQueue create(IbvProtectionDomain pd, SrqAttributes requested) throws VerbsException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment init = arena.allocate(ibv_srq_init_attr.layout());
            MemorySegment attr = ibv_srq_init_attr.attr(init);
            write(attr, requested);
            MemorySegment srq = NativeCall.pointer("ibv_create_srq", describe(requested), CREATE, null,
                    pd.handle(), init);
            return new IbvSharedReceiveQueue(pd, srq, actual(srq, attr), false);
        }
    }

    static IbvSharedReceiveQueue createXrc(IbvProtectionDomain pd, IbvXrcDomain xrcd, IbvCompletionQueue cq,
                                           SrqAttributes requested) throws VerbsException {
        MemorySegment createSrqEx = pd.ibvContext().ops().createSrqEx();
        if (createSrqEx == null) {
            throw new VerbsException("ibv_create_srq_ex", Errno.EOPNOTSUPP,
                    pd.ibvContext().deviceName() + "'s provider has no create_srq_ex");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment init = arena.allocate(ibv_srq_init_attr_ex.layout());
            MemorySegment attr = ibv_srq_init_attr_ex.attr(init);
            write(attr, requested);
            ibv_srq_init_attr_ex.comp_mask(init, IbVerbs.IBV_SRQ_INIT_ATTR_TYPE() | IbVerbs.IBV_SRQ_INIT_ATTR_PD()
                    | IbVerbs.IBV_SRQ_INIT_ATTR_XRCD() | IbVerbs.IBV_SRQ_INIT_ATTR_CQ());
            ibv_srq_init_attr_ex.srq_type(init, IbVerbs.IBV_SRQT_XRC());
            ibv_srq_init_attr_ex.pd(init, pd.handle());
            ibv_srq_init_attr_ex.xrcd(init, xrcd.handle());
            ibv_srq_init_attr_ex.cq(init, cq.handle());
            MemorySegment srq = NativeCall.pointer("ibv_create_srq_ex", "XRC " + describe(requested),
                    ContextOps.CREATE_SRQ_EX, createSrqEx, pd.ibvContext().handle(), init);
            return new IbvSharedReceiveQueue(pd, srq, actual(srq, attr), true, xrcd, cq);
        }
    }

    /**
     * The sizes the SRQ really has. ibv_create_srq(3) promises to write them back into the init
     * attributes, but rxe (rdma-core 44, kernel 6.1, measured in the lab) leaves the requested
     * values there — create 100 reads back 100 — while ibv_query_srq reports the rounded 127. The
     * query is authoritative; the read-back is the fallback if it fails.
     */
    private static SrqAttributes actual(MemorySegment srq, MemorySegment initAttr) {
        try {
            return query(srq.reinterpret(ibv_srq.sizeof()), "new SRQ");
        } catch (VerbsException e) {
            return read(initAttr);
        }
    }

    private static void write(MemorySegment attr, SrqAttributes a) {
        ibv_srq_attr.max_wr(attr, a.maxWr());
        ibv_srq_attr.max_sge(attr, a.maxSge());
        ibv_srq_attr.srq_limit(attr, a.srqLimit());
    }

    private static SrqAttributes read(MemorySegment attr) {
        return new SrqAttributes(ibv_srq_attr.max_wr(attr), ibv_srq_attr.max_sge(attr), ibv_srq_attr.srq_limit(attr));
    }

    private static String describe(SrqAttributes a) {
        return "max_wr " + a.maxWr() + ", max_sge " + a.maxSge() + ", srq_limit " + a.srqLimit();
    }

    private SrqAttributes queryNow() throws VerbsException {
        return query(handle(), kind());
    }

    /** ibv_query_srq(3) on any ibv_srq (also librpma's). */
    static SrqAttributes query(MemorySegment srq, String kind) throws VerbsException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_srq_attr.layout());
            NativeCall.status("ibv_query_srq", kind, QUERY, null, srq, attr);
            return read(attr);
        }
    }

    /** ibv_modify_srq(3) on any ibv_srq (also librpma's). */
    static void modify(MemorySegment srq, SrqAttributes values, int mask, String kind) throws VerbsException {
        SharedReceiveQueue.checkModifyMask(mask);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_srq_attr.layout());
            write(attr, values);
            NativeCall.status("ibv_modify_srq", kind + ": " + describe(values) + ", mask 0x"
                    + Integer.toHexString(mask), MODIFY, null, srq, attr, mask);
        }
    }

    @Override
    public int maxWr() {
        ensureOpen();
        return attributes.maxWr();
    }

    @Override
    public int maxSge() {
        ensureOpen();
        return attributes.maxSge();
    }

    @Override
    public int srqLimit() throws VerbsException {
        return attributes.srqLimit();
    }

    @Override
    public SrqAttributes query() throws VerbsException {
        return attributes.query();
    }

    @Override
    public void modify(SrqAttributes values, int mask) throws VerbsException {
        modify(handle(), values, mask, kind());
        if ((mask & MODIFY_MAX_WR) != 0) {
            attributes.resized();
        }
    }

    @Override
    public void postReceive(ReceiveWorkRequests wrs, int count) throws VerbsException {
        MemorySegment srq = handle();
        MemorySegment head = wrs.terminate(count);
        int rc;
        try {
            rc = (int) ContextOps.POST_SRQ_RECV.invokeExact(postSrqRecv, srq, head, wrs.badWrCell());
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("ibv_post_srq_recv downcall", t);
        } finally {
            wrs.relink(count);
        }
        if (rc != 0) {
            throw new PostReceiveException(Math.abs(rc), Math.max(0, wrs.badWrIndex()), count); // some drivers return -errno
        }
    }

    @Override
    public int srqNum() throws VerbsException {
        ensureOpen();
        MemorySegment getSrqNum = context.ops().getSrqNum();
        if (!xrc || getSrqNum == null) {
            throw new VerbsException("ibv_get_srq_num", Errno.EOPNOTSUPP, kind() + " is not an XRC SRQ");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment num = arena.allocate(ValueLayout.JAVA_INT);
            NativeCall.status("ibv_get_srq_num", kind(), ContextOps.GET_SRQ_NUM, getSrqNum, handle(), num);
            return num.get(ValueLayout.JAVA_INT, 0);
        }
    }

    @Override
    public int attachedQueuePairs() {
        ensureOpen();
        return userCount();
    }

    @Override
    protected void destroy() throws VerbsException {
        context.unregister(this);
        NativeCall.status("ibv_destroy_srq", kind(), DESTROY, null, raw());
    }
}
