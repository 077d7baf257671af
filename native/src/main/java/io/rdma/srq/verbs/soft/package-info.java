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
 * {@code next} pointers, and completions are kept as {@code struct ibv_wc} bytes and copied into
 * {@link io.rdma.srq.verbs.WorkCompletionArray#segment()} by a poll (layouts from the generated
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
 * {@link io.rdma.srq.verbs.Context#listen} binds a soft listener to an address of the soft host
 * ({@code SoftAddresses}: loopback, the soft devices' own 10.77.1.n, 10.0.0.0/24 or what system property
 * {@code io.rdma.srq.soft.addresses} says; another is EADDRNOTAVAIL, as rdma_bind_addr(3) answers),
 * {@code 0.0.0.0} listens on all; a port taken on that address or the wildcard is EADDRINUSE; port 0
 * takes a port of 32768..60999. Connects and accepts take {@code ConnectionParameters}: rnr_retry
 * governs the RNR retries of the QP's sends (n &lt; 7: IBV_WC_RNR_RETRY_EXC_ERR after n intervals of
 * 0.64 ms; 7: forever), the traffic class, ACK timeout and retry_cnt are kept and read back by
 * {@code queryConnectionParameters} (nothing is lost on the soft fabric, so nothing times out);
 * {@link io.rdma.srq.verbs.Context#connect} from any soft context of the JVM queues a
 * CONNECT_REQUEST there and waits, bounded by its timeout, for accept (both QPs go RESET → RTS towards
 * each other, ESTABLISHED on the listener) or reject (ECONNREFUSED); no listener is ECONNREFUSED (a
 * real CM's REJECTED), a full backlog ECONNREFUSED too, no answer ETIMEDOUT. Disconnect queues
 * DISCONNECTED on both sides; there is no TIMEWAIT_EXIT and no private data. An event whose connection
 * was closed before it is taken names no connection, as with the ibverbs provider. A connect to a
 * listener that is closing is refused (ECONNREFUSED), never left unanswered.
 * {@link io.rdma.srq.verbs.soft.SoftProvider#connectWithoutRtu} models a peer that stops after the
 * listener's accept (no RTU: no ESTABLISHED) until the test makes the listener's CM give up
 * (UNREACHABLE, REJECTED, CONNECT_ERROR).
 *
 * <h2>Events</h2>
 * Async events (SRQ_LIMIT_REACHED, CQ_ERR, QP_LAST_WQE_REACHED on soft_mlx5_0, and the DEVICE_FATAL and
 * PORT_ERR of {@link io.rdma.srq.verbs.soft.SoftProvider#raiseDeviceFatal} and
 * {@link io.rdma.srq.verbs.soft.SoftProvider#raisePortError}; QP_FATAL of
 * {@link io.rdma.srq.verbs.soft.SoftProvider#raiseQpFatal}, which moves the QP to ERROR; PORT_ACTIVE of
 * {@link io.rdma.srq.verbs.soft.SoftProvider#raisePortActive}) queue on the context; a port error
 * leaves ibv_query_port reading DOWN until the port is active again.
 * {@link io.rdma.srq.verbs.soft.SoftProvider#removeDevice} models {@code rdma link delete} of rxe (no
 * disassociate_ucontext): the device is no longer listed or opened (ENODEV), every rdma_cm id bound
 * to it gets RDMA_CM_EVENT_DEVICE_REMOVAL (a wildcard listener none), no async event comes, and the
 * removal waits until every context of the device is closed;
 * {@link io.rdma.srq.verbs.soft.SoftProvider#addDevice} brings it back;
 * {@link io.rdma.srq.verbs.Context#getAsyncEvent} and
 * {@link io.rdma.srq.verbs.CompletionChannel#getCqEvent} wait at most their timeout and return at once
 * when the context or channel closes. As on every provider, an event is copied and acknowledged
 * before it is returned, so no destroy ever waits for an unacknowledged event (ibv_destroy_srq,
 * ibv_destroy_qp and ibv_destroy_cq would block on one with libibverbs).
 *
 * <h2>Behaviour measured on rxe0 in the lab (kernel 6.1, rdma-core 44)</h2>
 * <ul>
 *   <li>A SEND longer than the receive completes the receive with {@code LOC_QP_OP_ERR} and the send
 *       with {@code REM_OP_ERR}; both QPs go to ERROR. soft_mlx5_0 gives {@code LOC_LEN_ERR} /
 *       {@code REM_INV_REQ_ERR} (mlx5's CQE syndromes).</li>
 *   <li>src_qp of an RC receive completion is 0: ibv_poll_cq(3) calls src_qp valid for UD only, and
 *       rxe_resp.c (do_complete) sets it only from a DETH. soft_rxe0 leaves it 0 too; soft_mlx5_0
 *       reports the sender's QP number, as mlx5 does. Code that needs the sender of an RC receive maps
 *       qp_num (the receiving QP) to its connection.</li>
 *   <li>A receive SGE outside a writable MR of the receiving QP's PD (unknown lkey, outside the MR,
 *       no LOCAL_WRITE, another PD, deregistered after the post) completes the receive with
 *       {@code LOC_QP_OP_ERR} (mlx5: {@code LOC_PROT_ERR}) and the send with {@code REM_OP_ERR}; both
 *       QPs go to ERROR. A send from a deregistered MR or one of another PD completes with
 *       {@code LOC_QP_OP_ERR} (mlx5: {@code LOC_PROT_ERR}) and the peer sees nothing (driver note 20,
 *       {@code MemoryProtectionConformanceTest}).</li>
 *   <li>IBV_EVENT_QP_LAST_WQE_REACHED never comes on kernel 6.1 (6.12 raises it, driver note 8):
 *       soft_rxe0 never raises it, soft_mlx5_0 does when an SRQ-attached QP enters ERROR.</li>
 * </ul>
 *
 * <h2>Behaviour taken from driver source rather than measured on rxe0</h2>
 * <ul>
 *   <li>rxe: srq_limit may equal max_wr (rxe_srq_chk_attr refuses only {@code srq_limit > index_mask},
 *       and index_mask is the rounded max_wr); modify checks run before anything changes; a resize
 *       below the outstanding count is EINVAL.</li>
 *   <li>CQ overrun: rxe raises CQ_ERR on every failed rxe_cq_post; the soft CQ raises it once until
 *       polled.</li>
 *   <li>mlx5: limit ≥ max_wr is EINVAL (driver note 1); the kernel compares with
 *       its internal queue size, which rdma-core's SRQ wait queue makes larger than max_wr + 1.</li>
 *   <li>The mlx5 and EFA device attributes are typical values, not measured.</li>
 * </ul>
 * Each of these is a named property of {@link io.rdma.srq.verbs.soft.DriverQuirks} with its source.
 */
package io.rdma.srq.verbs.soft;
