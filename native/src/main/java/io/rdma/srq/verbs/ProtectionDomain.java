package io.rdma.srq.verbs;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;

import java.lang.foreign.MemorySegment;
import java.util.Set;

/**
 * A protection domain ({@code struct ibv_pd}, ibv_alloc_pd(3)). Parent of MRs, SRQs and QPs.
 */
public interface ProtectionDomain extends VerbsObject {

    /** {@return the context it was allocated on} */
    Context context();

    /**
     * Registers memory the caller owns (ibv_reg_mr(3)). The MR keeps a strong reference to the
     * segment; the caller must keep the segment's arena open until the MR is closed (the device
     * may write into it until then).
     *
     * @param buffer a native segment, length ≥ 1 byte
     * @param access the access flags; receive buffers need only {@link AccessFlag#LOCAL_WRITE}
     * @return the MR
     * @throws VerbsException {@code EINVAL} for a heap segment or an empty one, else the errno
     *                        ibv_reg_mr sets ({@code ENOMEM}, {@code EFAULT}, {@code EACCES})
     */
    MemoryRegion registerMemory(MemorySegment buffer, Set<AccessFlag> access) throws VerbsException;

    /**
     * Allocates page-aligned native memory and registers it (ibv_reg_mr(3)); the memory is freed
     * when the MR is closed, after deregistration, never before.
     *
     * @param bytes  the size in bytes, ≥ 1
     * @param access the access flags
     * @return the MR that owns the memory
     * @throws VerbsException as {@link #registerMemory}
     */
    MemoryRegion allocateRegistered(long bytes, Set<AccessFlag> access) throws VerbsException;

    /**
     * ibv_create_srq(3). The actual max_wr and max_sge are read back and may exceed the request.
     * Portable code passes srq_limit 0 here and arms it after posting (mlx4/mlx5 ignore a
     * create-time limit; rxe honours it).
     *
     * @param requested max_wr 1..max_srq_wr, max_sge 0..max_srq_sge (rxe and mlx5 raise 0 to 1), srq_limit
     * @return the SRQ
     * @throws VerbsException {@code EINVAL} for max_wr 0 or sizes above the device maximum, else the
     *                        errno ibv_create_srq sets
     */
    SharedReceiveQueue createSrq(SrqAttributes requested) throws VerbsException;

    /**
     * An XRC SRQ (ibv_create_srq_ex(3) with IBV_SRQT_XRC, through {@code verbs_context}).
     *
     * @param xrcd      the XRC domain
     * @param cq        the CQ its completions go to
     * @param requested as for {@link #createSrq}
     * @return the SRQ; {@link SharedReceiveQueue#srqNum()} gives the number remote senders target
     * @throws VerbsException {@code EOPNOTSUPP} where the device has no XRC, else the errno
     */
    SharedReceiveQueue createXrcSrq(XrcDomain xrcd, CompletionQueue cq, SrqAttributes requested)
            throws VerbsException;

    /**
     * ibv_create_qp(3). A QP with an SRQ takes its receives from the SRQ; the SRQ and both CQs then
     * refuse to close ({@code EBUSY}) until the QP is closed.
     *
     * @param init the QP type, CQs, optional SRQ and capacities
     * @return the QP, in state RESET
     * @throws VerbsException {@code EINVAL} for capacities above the device maximum, else the errno
     */
    QueuePair createQp(QpInitAttributes init) throws VerbsException;
}
