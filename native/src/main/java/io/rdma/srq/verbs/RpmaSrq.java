package io.rdma.srq.verbs;

import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;

/**
 * A librpma shared RQ (rpma_srq_new(3)) and its optional shared receive CQ (rpma_srq_get_rcq(3)).
 * Query and limit go to the underlying {@code ibv_srq} (ibv_query_srq(3), ibv_modify_srq(3)),
 * which librpma does not offer.
 */
public interface RpmaSrq extends VerbsObject {

    /**
     * rpma_srq_recv(3): posts one receive of {@code length} bytes at {@code offset} of {@code dst}.
     *
     * @param dst       registered memory of the same peer
     * @param offset    byte offset
     * @param length    bytes
     * @param opContext the value reported as wr_id of the completion
     * @throws VerbsException an {@link RpmaException} (RPMA_E_INVAL for a bad range, RPMA_E_PROVIDER
     *                        with ENOMEM when the SRQ is full)
     */
    void recv(RpmaMemory dst, long offset, int length, long opContext) throws VerbsException;

    /** {@return whether the SRQ has a shared receive CQ (rcq_size &gt; 0)} */
    boolean hasReceiveCq();

    /**
     * rpma_cq_get_wc(3) on the shared receive CQ.
     *
     * @param wcs where completions go (as {@code struct ibv_wc})
     * @return completions taken, 0 when none is ready (RPMA_E_NO_COMPLETION)
     * @throws VerbsException EOPNOTSUPP without a receive CQ, else an {@link RpmaException}
     */
    int pollReceiveCq(WorkCompletionArray wcs) throws VerbsException;

    /**
     * ibv_query_srq(3) on the underlying SRQ.
     *
     * @return max_wr, max_sge, srq_limit
     * @throws VerbsException the errno of ibv_query_srq
     */
    SrqAttributes query() throws VerbsException;

    /**
     * ibv_modify_srq(3) IBV_SRQ_LIMIT on the underlying SRQ.
     *
     * @param srqLimit the watermark, 0..max_wr
     * @throws VerbsException EINVAL above max_wr
     */
    void armLimit(int srqLimit) throws VerbsException;
}
