package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.RpmaMemory;
import io.rdma.srq.verbs.RpmaSrq;
import io.rdma.srq.verbs.RpmaSrqConfig;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.WorkCompletionArray;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_srq;
import io.rdma.srq.verbs.ffi.rpma.Rpma;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@link RpmaSrq} over {@code struct rpma_srq}. librpma exports no accessor for the ibv_srq it
 * wraps; librpma 1.2's (final: the project is archived) {@code struct rpma_srq} begins with it
 * ({@code struct ibv_srq *ibv_srq; struct rpma_cq *rcq;}). That pointer is read and checked — its
 * {@code context} must be the peer's ibv_context — before query and modify use it; a mismatch
 * is reported as EOPNOTSUPP instead of touching unknown memory.
 */
final class IbvRpmaSrq extends IbvResource implements RpmaSrq {
    private static final int RPMA_E_NO_COMPLETION = -100005;

    private final MemorySegment rcq;
    private final MemorySegment ibvSrq;

    private IbvRpmaSrq(IbvRpmaPeer peer, MemorySegment srq, MemorySegment rcq, MemorySegment ibvSrq) {
        super(peer, "rpma SRQ on " + peer.ibvContext().deviceName(), "rpma_srq_delete", srq, 2 * ValueLayout.ADDRESS.byteSize());
        this.rcq = rcq;
        this.ibvSrq = ibvSrq;
    }

    static IbvRpmaSrq create(IbvRpmaPeer peer, RpmaSrqConfig config) throws VerbsException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cfg = MemorySegment.NULL;
            MemorySegment cfgCell = arena.allocate(ValueLayout.ADDRESS);
            if (config != null) {
                Librpma.check("rpma_srq_cfg_new", Rpma.rpma_srq_cfg_new(cfgCell), null);
                cfg = cfgCell.get(ValueLayout.ADDRESS, 0);
                Librpma.check("rpma_srq_cfg_set_rq_size", Rpma.rpma_srq_cfg_set_rq_size(cfg, config.rqSize()), null);
                Librpma.check("rpma_srq_cfg_set_rcq_size", Rpma.rpma_srq_cfg_set_rcq_size(cfg, config.rcqSize()), null);
            }
            try {
                MemorySegment cell = arena.allocate(ValueLayout.ADDRESS);
                Librpma.call("rpma_srq_new", config == null ? "default config" : config.toString(), Librpma.H.SRQ_NEW,
                        null, peer.handle(), cfg, cell);
                MemorySegment srq = cell.get(ValueLayout.ADDRESS, 0);
                MemorySegment rcqCell = arena.allocate(ValueLayout.ADDRESS);
                Librpma.check("rpma_srq_get_rcq", Rpma.rpma_srq_get_rcq(srq, rcqCell), null);
                MemorySegment first = srq.reinterpret(ValueLayout.ADDRESS.byteSize()).get(ValueLayout.ADDRESS, 0);
                MemorySegment ibv = first.address() != 0 && ibv_srq.context(first.reinterpret(ibv_srq.sizeof())).address()
                        == peer.verbsContext() ? first.reinterpret(ibv_srq.sizeof()) : MemorySegment.NULL;
                return new IbvRpmaSrq(peer, srq, rcqCell.get(ValueLayout.ADDRESS, 0), ibv);
            } finally {
                if (config != null) {
                    Rpma.rpma_srq_cfg_delete(cfgCell);
                }
            }
        }
    }

    @Override
    public void recv(RpmaMemory dst, long offset, int length, long opContext) throws VerbsException {
        ensureOpen();
        Librpma.call("rpma_srq_recv", length + " bytes at " + offset, Librpma.H.SRQ_RECV, null, handle(),
                ((IbvRpmaMemory) dst).mr(), offset, (long) length, MemorySegment.ofAddress(opContext));
    }

    @Override
    public boolean hasReceiveCq() {
        ensureOpen();
        return rcq.address() != 0;
    }

    @Override
    public int pollReceiveCq(WorkCompletionArray wcs) throws VerbsException {
        ensureOpen();
        if (!hasReceiveCq()) {
            throw new VerbsException("rpma_cq_get_wc", Errno.EOPNOTSUPP, kind() + " has no shared receive CQ (rcq_size 0)");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment got = arena.allocate(ValueLayout.JAVA_INT);
            int rc = Librpma.call("rpma_cq_get_wc", kind(), Librpma.H.CQ_GET_WC, RPMA_E_NO_COMPLETION, rcq,
                    wcs.capacity(), wcs.segment(), got);
            return rc == RPMA_E_NO_COMPLETION ? 0 : got.get(ValueLayout.JAVA_INT, 0);
        }
    }

    private MemorySegment ibvSrq() throws VerbsException {
        ensureOpen();
        if (ibvSrq.address() == 0) {
            throw new VerbsException("ibv_query_srq", Errno.EOPNOTSUPP,
                    "this librpma's struct rpma_srq does not start with its ibv_srq (only librpma 1.2 is known)");
        }
        return ibvSrq;
    }

    @Override
    public SrqAttributes query() throws VerbsException {
        return IbvSharedReceiveQueue.query(ibvSrq(), kind());
    }

    @Override
    public void armLimit(int srqLimit) throws VerbsException {
        IbvSharedReceiveQueue.modify(ibvSrq(), new SrqAttributes(0, 0, srqLimit), SharedReceiveQueue.MODIFY_LIMIT, kind());
    }

    @Override
    protected void destroy() throws VerbsException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cell = arena.allocate(ValueLayout.ADDRESS);
            cell.set(ValueLayout.ADDRESS, 0, raw());
            Librpma.check("rpma_srq_delete", Rpma.rpma_srq_delete(cell), kind());
        }
    }
}
