package io.rdma.srq.verbs;

/**
 * The configuration of rpma_srq_new(3) ({@code rpma_srq_cfg}).
 *
 * @param rqSize  receive WRs the SRQ holds (librpma's default: 20)
 * @param rcqSize entries of the shared receive CQ; 0 = no shared receive CQ (default: 20)
 */
public record RpmaSrqConfig(int rqSize, int rcqSize) {
    /** Rejects negative sizes. */
    public RpmaSrqConfig {
        if (rqSize < 0 || rcqSize < 0) {
            throw new IllegalArgumentException("rq_size and rcq_size must be ≥ 0, got " + rqSize + ", " + rcqSize);
        }
    }
}
