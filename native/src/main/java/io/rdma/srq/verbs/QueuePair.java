package io.rdma.srq.verbs;

import io.rdma.srq.api.VerbsException;

/**
 * A queue pair ({@code struct ibv_qp}, ibv_create_qp(3)). Created in state RESET; {@link #connect}
 * moves it through INIT, RTR and RTS (ibv_modify_qp(3)) to a peer. rdma_cm does the same for
 * connections it manages.
 */
public interface QueuePair extends VerbsObject {

    /** {@return the QP number (24 bits)} */
    int qpNum();

    /** {@return the SRQ its receives come from, or {@code null}} */
    SharedReceiveQueue srq();

    /**
     * The address a peer needs to connect to this QP.
     *
     * @param port     the port, 1..phys_port_cnt
     * @param gidIndex the GID table index (rxe: 1 is the IPv4-mapped GID)
     * @return this QP's endpoint, with a PSN chosen at creation
     * @throws VerbsException the errno of ibv_query_port or ibv_query_gid
     */
    RcEndpoint localEndpoint(int port, int gidIndex) throws VerbsException;

    /**
     * ibv_modify_qp(3) RESET → INIT → RTR → RTS towards {@code remote}, with the settings of
     * rdma-core's ibv_rc_pingpong (MTU from the port's active MTU, rnr_retry 7, timeout 14).
     *
     * @param port     the local port
     * @param gidIndex the local GID index (used as sgid_index; the global route is always set)
     * @param remote   the peer's endpoint
     * @throws VerbsException the errno ibv_modify_qp returns, naming the target state
     */
    void connect(int port, int gidIndex, RcEndpoint remote) throws VerbsException;

    /**
     * As {@link #connect(int, int, RcEndpoint)} with an explicit rnr_retry.
     *
     * @param port     the local port
     * @param gidIndex the local GID index
     * @param remote   the peer's endpoint
     * @param rnrRetry 0..7; 7 retries forever, smaller values end in IBV_WC_RNR_RETRY_EXC_ERR when the
     *                 peer's receive queue stays empty
     * @throws VerbsException {@code EINVAL} for rnr_retry outside 0..7, else the errno of ibv_modify_qp
     */
    void connect(int port, int gidIndex, RcEndpoint remote, int rnrRetry) throws VerbsException;

    /**
     * Posts one signaled SEND (or SEND_WITH_IMM) work request with one SGE (ibv_post_send(3)).
     *
     * @param wrId   the wr_id reported in the send completion
     * @param mr     the registered memory holding the message (one closed since, or one of another PD, is
     *               not refused: the send completes with an error, {@code LOC_QP_OP_ERR} on rxe and
     *               {@code LOC_PROT_ERR} on mlx5, and the QP goes to ERROR; driver note 20)
     * @param offset byte offset of the message in {@code mr}
     * @param length message length in bytes, 0..mr.length() − offset
     * @param imm    immediate data in host order (sent in network order), or {@code null} for a plain SEND
     * @throws VerbsException {@code ENOMEM} when the send queue is full, {@code EINVAL} for a bad WR
     */
    void postSend(long wrId, MemoryRegion mr, long offset, int length, Integer imm) throws VerbsException;

    /**
     * ibv_modify_qp(3) to IBV_QPS_ERR (mask IBV_QP_STATE): the QP stops receiving at once — a peer's
     * later or retried packets get no acknowledgement, so its sends end in IBV_WC_RETRY_EXC_ERR —
     * waiting sends complete with IBV_WC_WR_FLUSH_ERR, and a receive it had begun to fill completes
     * with IBV_WC_WR_FLUSH_ERR; receive WRs of its SRQ stay in the SRQ and completions already in the
     * CQ stay there (driver note 18). rdma_disconnect(3) does this only for a QP made by
     * rdma_create_qp, never for one the application created. Idempotent.
     *
     * @throws VerbsException the errno of ibv_modify_qp
     */
    void moveToError() throws VerbsException;

    /**
     * ibv_query_qp(3) of the fabric settings in force: {@code ah_attr.grh.traffic_class},
     * {@code timeout}, {@code retry_cnt}, {@code rnr_retry}.
     *
     * @return the settings, every field present (a QP not yet at RTS reports zeros, as the device does)
     * @throws VerbsException the errno of ibv_query_qp
     */
    ConnectionParameters queryConnectionParameters() throws VerbsException;
}
