package io.rdma.srq.api;

/**
 * An SRQ of a pooled connection, seen through one connection handle. The adapter owns its receive
 * side: one registered slab of max_wr × receiveBufferSize bytes, every buffer posted, reposted as
 * soon as its message is copied out, and the srq_limit armed after the first posts and re-armed on
 * each IBV_EVENT_SRQ_LIMIT_REACHED (which also fires {@link SrqLimitReached}). Applications cannot
 * post receives, resize it or arm its limit, so no posted WR ever points at memory an application
 * freed, and no resize can outgrow the CQ its completions go to.
 * Attributes follow ibv_query_srq(3)'s FAQ: {@link #maxWr()} and {@link #maxSge()} are cached until a
 * resize; {@link #srqLimit()} is read live.
 */
public interface SrqHandle {

    /** {@return the name it was opened with} */
    String name();

    /** {@return max_wr, the actual size (≥ requested; rxe rounds up to 2^n − 1)} */
    int maxWr();

    /** {@return max_sge} */
    int maxSge();

    /**
     * {@return the live srq_limit (0 after the limit event fired)}
     *
     * @throws VerbsException the errno of ibv_query_srq
     */
    int srqLimit();

    /**
     * ibv_query_srq(3).
     *
     * @return the attributes read live
     * @throws VerbsException the errno of ibv_query_srq
     */
    SrqAttributes query();

    /** {@return bytes per receive buffer: the connection definition's receiveBufferSize} */
    int receiveBufferSize();
}
