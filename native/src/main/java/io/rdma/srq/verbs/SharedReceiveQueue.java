package io.rdma.srq.verbs;

import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;

/**
 * A shared receive queue ({@code struct ibv_srq}, ibv_create_srq(3)).
 *
 * <p>Attribute reads follow the ibv_query_srq(3) FAQ: max_wr and max_sge do not change unless the
 * SRQ is resized, so they are cached (and refreshed after a resize); srq_limit changes under the
 * application's feet (the device zeroes it when the limit event fires), so it is always read live.
 *
 * <p>Posting is thread-safe with respect to close; concurrent posts from several threads are
 * allowed by the verbs and by this class.
 */
public interface SharedReceiveQueue extends VerbsObject {

    /** {@return max_wr, cached until a resize (ibv_query_srq(3) FAQ)} */
    int maxWr();

    /** {@return max_sge, cached (it cannot be modified)} */
    int maxSge();

    /**
     * {@return the live srq_limit (0 once the limit event has fired)}
     *
     * @throws VerbsException the errno ibv_query_srq returns
     */
    int srqLimit() throws VerbsException;

    /**
     * ibv_query_srq(3): all three attributes, read live; refreshes the cache.
     *
     * @return the current attributes
     * @throws VerbsException the errno ibv_query_srq returns
     */
    SrqAttributes query() throws VerbsException;

    /**
     * ibv_modify_srq(3) with IBV_SRQ_MAX_WR: grows the SRQ. The actual size may exceed the request
     * (rxe rounds to 2^n − 1).
     *
     * @param maxWr the new least max_wr, 1..max_srq_wr
     * @throws VerbsException {@code EINVAL} if the device lacks SRQ_RESIZE, if maxWr exceeds
     *                        max_srq_wr, or if it is below an armed srq_limit; nothing is modified
     */
    default void resize(int maxWr) throws VerbsException {
        modify(new SrqAttributes(maxWr, 0, 0), MODIFY_MAX_WR);
    }

    /**
     * ibv_modify_srq(3) with IBV_SRQ_LIMIT: arms the one-shot low-watermark event. When fewer than
     * {@code srqLimit} receive WRs remain, IBV_EVENT_SRQ_LIMIT_REACHED is raised once on the
     * context's async event queue and the limit reads 0 until re-armed.
     *
     * @param srqLimit the watermark in WRs, 0..max_wr (0 disarms on most devices)
     * @throws VerbsException {@code EINVAL} if srqLimit exceeds max_wr (mlx5: ≥ max_wr)
     */
    default void armLimit(int srqLimit) throws VerbsException {
        modify(new SrqAttributes(0, 0, srqLimit), MODIFY_LIMIT);
    }

    /**
     * ibv_modify_srq(3) with an explicit mask.
     *
     * @param attributes the values; fields outside the mask are ignored
     * @param mask       {@link #MODIFY_MAX_WR}, {@link #MODIFY_LIMIT} or both
     * @throws VerbsException {@code EINVAL} for any invalid attribute; then nothing is modified
     */
    void modify(SrqAttributes attributes, int mask) throws VerbsException;

    /**
     * Checks an ibv_modify_srq(3) mask.
     *
     * @param mask the mask
     * @throws VerbsException {@code EINVAL} unless it is MAX_WR, LIMIT or both
     */
    static void checkModifyMask(int mask) throws VerbsException {
        if ((mask & ~(MODIFY_MAX_WR | MODIFY_LIMIT)) != 0 || mask == 0) {
            throw new VerbsException("ibv_modify_srq", io.rdma.srq.api.Errno.EINVAL,
                    "srq_attr_mask must be IBV_SRQ_MAX_WR, IBV_SRQ_LIMIT or both, got 0x" + Integer.toHexString(mask));
        }
    }

    /**
     * Posts the first {@code count} receive WRs of {@code wrs} as one chain (the static inline
     * ibv_post_srq_recv, through the provider's fast path). Allocation-free.
     *
     * @param wrs   the prepared WRs
     * @param count how many, 1..wrs.capacity()
     * @throws PostReceiveException {@code ENOMEM} when the SRQ is full, with the index of the first
     *                              WR not posted (those before it were posted)
     * @throws VerbsException       any other errno
     */
    void postReceive(ReceiveWorkRequests wrs, int count) throws VerbsException;

    /**
     * {@return the SRQ number of an XRC SRQ (ibv_get_srq_num(3))}
     *
     * @throws VerbsException {@code EOPNOTSUPP} for a basic SRQ
     */
    int srqNum() throws VerbsException;

    /** {@return how many open QPs take their receives from this SRQ} */
    int attachedQueuePairs();

    /** Mask bit IBV_SRQ_MAX_WR. */
    int MODIFY_MAX_WR = 1;
    /** Mask bit IBV_SRQ_LIMIT. */
    int MODIFY_LIMIT = 1 << 1;
}
