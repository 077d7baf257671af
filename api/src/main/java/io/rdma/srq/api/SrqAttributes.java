package io.rdma.srq.api;

/**
 * The attributes of a shared receive queue ({@code struct ibv_srq_attr}, ibv_query_srq(3),
 * ibv_modify_srq(3)).
 *
 * @param maxWr    max_wr: the most receive work requests (WRs) that may be outstanding;
 *                 the device may round it up (rxe: to 2^n − 1)
 * @param maxSge   max_sge: scatter/gather elements per receive WR; cannot be modified
 * @param srqLimit srq_limit: the low watermark; when fewer WRs than this remain posted the
 *                 device raises IBV_EVENT_SRQ_LIMIT_REACHED once and resets it to 0. 0 = disarmed
 */
public record SrqAttributes(int maxWr, int maxSge, int srqLimit) {

    /**
     * Checks the values.
     *
     * @throws IllegalArgumentException if a value is negative (the C fields are unsigned;
     *                                  values above 2^31−1 are not representable and not used by any device)
     */
    public SrqAttributes {
        if (maxWr < 0 || maxSge < 0 || srqLimit < 0) {
            throw new IllegalArgumentException("SRQ attributes must be ≥ 0: max_wr=" + maxWr
                    + ", max_sge=" + maxSge + ", srq_limit=" + srqLimit);
        }
    }
}
