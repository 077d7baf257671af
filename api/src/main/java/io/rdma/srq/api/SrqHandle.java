package io.rdma.srq.api;

/**
 * An SRQ of a pooled connection, seen through one connection handle.
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
    int srqLimit() throws VerbsException;

    /**
     * ibv_query_srq(3).
     *
     * @return the attributes read live
     * @throws VerbsException the errno of ibv_query_srq
     */
    SrqAttributes query() throws VerbsException;

    /**
     * ibv_modify_srq(3) with IBV_SRQ_MAX_WR.
     *
     * @param maxWr the new least max_wr
     * @throws VerbsException {@code EINVAL} without SRQ_RESIZE, above max_srq_wr, or below an armed limit
     */
    void resize(int maxWr) throws VerbsException;

    /**
     * ibv_modify_srq(3) with IBV_SRQ_LIMIT: arms the one-shot low-watermark event.
     *
     * @param srqLimit the watermark in WRs, 0..max_wr
     * @throws VerbsException {@code EINVAL} above max_wr
     */
    void armLimit(int srqLimit) throws VerbsException;

    /**
     * Posts {@code count} receive WRs of {@code bufferSize} bytes each, carved consecutively from
     * {@code memory} starting at {@code offset}; WR i gets wr_id {@code firstWrId + i}.
     *
     * @param memory     registered memory of this connection
     * @param offset     byte offset of the first buffer
     * @param bufferSize bytes per buffer, ≥ 1
     * @param count      number of WRs, ≥ 1; the buffers must fit in {@code memory}
     * @param firstWrId  wr_id of the first WR
     * @return the number posted (= count)
     * @throws VerbsException {@code EINVAL} if the buffers do not fit (the message gives the sizes);
     *                        {@code ENOMEM} when the SRQ is full — then the message says how many were
     *                        posted
     */
    int postReceives(RegisteredMemory memory, long offset, int bufferSize, int count, long firstWrId)
            throws VerbsException;
}
