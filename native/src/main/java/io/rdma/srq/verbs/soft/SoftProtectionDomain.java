package io.rdma.srq.verbs.soft;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.XrcDomain;

import java.lang.foreign.MemorySegment;
import java.util.Set;

/** {@link ProtectionDomain} of a soft device. */
final class SoftProtectionDomain extends SoftResource implements ProtectionDomain {
    private final SoftContext context;

    SoftProtectionDomain(SoftContext context) {
        super(context, "PD on " + context.deviceName(), "ibv_dealloc_pd");
        this.context = context;
    }

    @Override
    public Context context() {
        checkOpen();
        return context;
    }

    SoftContext softContext() {
        return context;
    }

    /**
     * ibv_reg_mr(3) of caller-owned memory.
     *
     * @throws VerbsException {@code EINVAL} for a heap or empty segment, or REMOTE_WRITE /
     *                        REMOTE_ATOMIC without LOCAL_WRITE (ibv_reg_mr(3))
     */
    @Override
    public MemoryRegion registerMemory(MemorySegment buffer, Set<AccessFlag> access) throws VerbsException {
        return open(() -> SoftMemoryRegion.register(this, buffer, AccessFlag.toMask(access), null));
    }

    /**
     * Page-aligned memory (4096 bytes), zeroed, registered, freed after the MR is closed.
     *
     * @throws VerbsException as {@link #registerMemory}; {@code EINVAL} for {@code bytes < 1}
     */
    @Override
    public MemoryRegion allocateRegistered(long bytes, Set<AccessFlag> access) throws VerbsException {
        return open(() -> SoftMemoryRegion.allocate(this, bytes, AccessFlag.toMask(access)));
    }

    /**
     * ibv_create_srq(3) with the profile's rules: rxe rounds max_wr to 2^n − 1 and honours
     * srq_limit; mlx5 rounds max_wr the same way, max_sge up to what its WQE holds, and ignores
     * srq_limit; EFA has no SRQ.
     *
     * @throws VerbsException {@code EOPNOTSUPP} on soft_efa0; {@code EINVAL} for max_wr 0 or above
     *                        max_srq_wr, or max_sge above max_srq_sge
     */
    @Override
    public SharedReceiveQueue createSrq(SrqAttributes requested) throws VerbsException {
        return open(() -> SoftSharedReceiveQueue.create(this, requested, null, null));
    }

    /**
     * ibv_create_srq_ex(3) with IBV_SRQT_XRC. The SRQ's completions would go to {@code cq}; the soft
     * fabric has no XRC send QPs, so they only come from local use.
     *
     * @throws VerbsException {@code EOPNOTSUPP} without IBV_DEVICE_XRC; {@code EINVAL} for a domain or
     *                        CQ of another context, or sizes as for {@link #createSrq}
     */
    @Override
    public SharedReceiveQueue createXrcSrq(XrcDomain xrcd, CompletionQueue cq, SrqAttributes requested)
            throws VerbsException {
        return open(() -> SoftSharedReceiveQueue.createXrc(this, xrcd, cq, requested));
    }

    /**
     * ibv_create_qp(3).
     *
     * @throws VerbsException {@code EINVAL} for CQs or an SRQ of another context, an XRC SRQ, an SRQ on
     *                        soft_efa0 (EFA has none), or capacities above max_qp_wr / max_sge;
     *                        {@code EOPNOTSUPP} for RC or UC on soft_efa0
     */
    @Override
    public QueuePair createQp(QpInitAttributes init) throws VerbsException {
        return open(() -> SoftQueuePair.create(this, init));
    }

    @Override
    protected void release() {
    }
}
