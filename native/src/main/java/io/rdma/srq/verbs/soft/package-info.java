/**
 * The soft device: an in-JVM {@link io.rdma.srq.verbs.VerbsProvider} ({@code provider=soft}) with the
 * semantics, limits and errno values of a real verbs device, for builds, tests and machines without
 * RDMA hardware. Entry point: {@link io.rdma.srq.verbs.soft.SoftProvider}; where drivers differ,
 * {@link io.rdma.srq.verbs.soft.SoftProfile} chooses (one device per profile: {@code soft_rxe0}, the
 * default, {@code soft_mlx5_0}, {@code soft_efa0}).
 *
 * <h2>Shared with the real device</h2>
 * Every object extends {@link io.rdma.srq.verbs.spi.ResourceBase} (children first, EBUSY while used,
 * IllegalStateException after close); SRQ attributes are read through
 * {@link io.rdma.srq.verbs.spi.SrqAttributeCache}. Receive WRs are read from the native
 * {@code struct ibv_recv_wr} chain of {@link io.rdma.srq.verbs.ReceiveWorkRequests} along its
 * {@code next} pointers, and completions are written as {@code struct ibv_wc} bytes into
 * {@link io.rdma.srq.verbs.WorkCompletionArray#segment()} (layouts from the generated
 * {@code io.rdma.srq.verbs.ffi.ibverbs} classes), so the code around post and poll is the same as
 * with libibverbs. The soft device never loads libibverbs.
 *
 * <h2>The fabric</h2>
 * All soft devices of a JVM hang off one fabric. A soft RC QP connects to any soft QP with
 * {@link io.rdma.srq.verbs.QueuePair#connect} (port 1, any GID index below gid_tbl_len; the
 * {@link io.rdma.srq.verbs.RcEndpoint} of {@link io.rdma.srq.verbs.QueuePair#localEndpoint} carries the
 * QP number, a PSN, LID 0 and a GID unique to the device). A SEND consumes the oldest receive of the
 * peer's SRQ, copies the bytes, and produces a receive and a send completion; an empty SRQ makes the
 * send wait (RNR) until a receive is posted or the RNR retries run out; the SRQ limit event fires on
 * the consume that leaves fewer than srq_limit receives. The details and the error statuses are on
 * {@code SoftQueuePair}, {@code SoftSharedReceiveQueue} and {@code SoftCompletionQueue}.
 *
 * <h2>rdma_cm</h2>
 * {@link io.rdma.srq.verbs.Context#listen} binds a soft listener to any address (the soft device has
 * no netdev: every address counts as its own, {@code 0.0.0.0} listens on all; port 0 takes a port of
 * 32768..60999); {@link io.rdma.srq.verbs.Context#connect} from any soft context of the JVM queues a
 * CONNECT_REQUEST there and waits, bounded by its timeout, for accept (both QPs go RESET → RTS towards
 * each other, ESTABLISHED on the listener) or reject (ECONNREFUSED); no listener is ECONNREFUSED (a
 * real CM's REJECTED), no answer ETIMEDOUT. Disconnect queues DISCONNECTED on both sides; there is no
 * TIMEWAIT_EXIT and no private data.
 *
 * <h2>Events</h2>
 * Async events (SRQ_LIMIT_REACHED, CQ_ERR, QP_LAST_WQE_REACHED on soft_mlx5_0) queue on the context;
 * {@link io.rdma.srq.verbs.Context#getAsyncEvent} and
 * {@link io.rdma.srq.verbs.CompletionChannel#getCqEvent} wait at most their timeout and return at once
 * when the context or channel closes. As on every provider, an event is copied and acknowledged
 * before it is returned, so no destroy ever waits for an unacknowledged event (ibv_destroy_srq,
 * ibv_destroy_qp and ibv_destroy_cq would block on one with libibverbs).
 *
 * <h2>Behaviour taken from driver source rather than measured on rxe0</h2>
 * <ul>
 *   <li>rxe: a SEND longer than the receive completes the receive with {@code REM_INV_REQ_ERR}, not
 *       {@code LOC_LEN_ERR} (rxe_resp.c, RESPST_ERR_LENGTH is a class C error), and the send with
 *       {@code REM_INV_REQ_ERR}; both QPs go to ERROR.</li>
 *   <li>src_qp of an RC receive completion: every soft profile reports the sender's QP number (the
 *       project's choice). ibv_poll_cq(3) calls src_qp valid for UD only, and rxe (rxe_resp.c
 *       do_complete) sets it only from a DETH, so on rxe0 it reads 0 for RC: code that needs the
 *       sender of an RC receive should map qp_num (the receiving QP) to its connection instead.
 *       {@code SoftProfile}'s {@code rcSrcQpReported} switches soft_rxe0 to rxe's 0.</li>
 *   <li>rxe: a receive SGE outside a writable MR gives {@code LOC_QP_OP_ERR} (RESPST_ERR_MALFORMED_WQE).</li>
 *   <li>rxe: srq_limit may equal max_wr (the check is {@code srq_limit > index_mask}); modify checks
 *       run before anything changes; a resize below the outstanding count is EINVAL.</li>
 *   <li>CQ overrun: rxe raises CQ_ERR on every failed rxe_cq_post; the soft CQ raises it once until
 *       polled.</li>
 *   <li>mlx5: limit ≥ max_wr is EINVAL (driver note 1); the kernel compares with
 *       its internal queue size, which rdma-core's SRQ wait queue makes larger than max_wr + 1.</li>
 *   <li>The mlx5 and EFA device attributes are typical values, not measured.</li>
 * </ul>
 */
package io.rdma.srq.verbs.soft;
