package io.rdma.srq.api;

/**
 * {@code enum ibv_wc_status} (ibv_poll_cq(3)) in the C order; {@link #code()} is the C value.
 * Only {@link #SUCCESS} completions carry a valid opcode, byte_len and imm_data.
 */
public enum WcStatus {
    /** IBV_WC_SUCCESS (0): the work request completed. */
    SUCCESS,
    /** IBV_WC_LOC_LEN_ERR (1): a message longer than the receive buffer (mlx5; rxe0 reports LOC_QP_OP_ERR). */
    LOC_LEN_ERR,
    /** IBV_WC_LOC_QP_OP_ERR (2): an internal QP consistency error, e.g. a malformed WQE. */
    LOC_QP_OP_ERR,
    /** IBV_WC_LOC_EEC_OP_ERR (3): an internal EE context consistency error (RD only). */
    LOC_EEC_OP_ERR,
    /** IBV_WC_LOC_PROT_ERR (4): an SGE not inside a valid MR of the QP's PD, or without the needed access. */
    LOC_PROT_ERR,
    /** IBV_WC_WR_FLUSH_ERR (5): the WR was flushed because the QP is in ERROR. */
    WR_FLUSH_ERR,
    /** IBV_WC_MW_BIND_ERR (6): a memory window bind failed. */
    MW_BIND_ERR,
    /** IBV_WC_BAD_RESP_ERR (7): an unexpected transport response from the responder. */
    BAD_RESP_ERR,
    /** IBV_WC_LOC_ACCESS_ERR (8): a protection error on a local buffer during an RDMA read response. */
    LOC_ACCESS_ERR,
    /** IBV_WC_REM_INV_REQ_ERR (9): the responder found the request invalid (mlx5: a SEND longer than the receive). */
    REM_INV_REQ_ERR,
    /** IBV_WC_REM_ACCESS_ERR (10): a protection error at the responder on an RDMA or atomic operation. */
    REM_ACCESS_ERR,
    /** IBV_WC_REM_OP_ERR (11): the responder could not complete the operation (rxe0: a SEND longer than the receive). */
    REM_OP_ERR,
    /** IBV_WC_RETRY_EXC_ERR (12): the transport retries ran out: no acknowledgement from the peer. */
    RETRY_EXC_ERR,
    /** IBV_WC_RNR_RETRY_EXC_ERR (13): the RNR retries ran out: the peer had no receive posted. */
    RNR_RETRY_EXC_ERR,
    /** IBV_WC_LOC_RDD_VIOL_ERR (14): an RDD violation (RD only). */
    LOC_RDD_VIOL_ERR,
    /** IBV_WC_REM_INV_RD_REQ_ERR (15): an invalid RD request at the responder (RD only). */
    REM_INV_RD_REQ_ERR,
    /** IBV_WC_REM_ABORT_ERR (16): the responder aborted the operation. */
    REM_ABORT_ERR,
    /** IBV_WC_INV_EECN_ERR (17): an invalid EE context number (RD only). */
    INV_EECN_ERR,
    /** IBV_WC_INV_EEC_STATE_ERR (18): an invalid EE context state (RD only). */
    INV_EEC_STATE_ERR,
    /** IBV_WC_FATAL_ERR (19): a fatal device error. */
    FATAL_ERR,
    /** IBV_WC_RESP_TIMEOUT_ERR (20): the response timed out. */
    RESP_TIMEOUT_ERR,
    /** IBV_WC_GENERAL_ERR (21): any other error; vendor_err says more. */
    GENERAL_ERR,
    /** IBV_WC_TM_ERR (22): a tag matching error. */
    TM_ERR,
    /** IBV_WC_TM_RNDV_INCOMPLETE (23): a tag matching rendezvous did not complete. */
    TM_RNDV_INCOMPLETE;

    private static final WcStatus[] VALUES = values();

    /** {@return the C enum value} */
    public int code() {
        return ordinal();
    }

    /**
     * {@return the constant}
     *
     * @param code a C {@code enum ibv_wc_status} value
     * @throws IllegalArgumentException for a value this enum does not know
     */
    public static WcStatus of(int code) {
        if (code < 0 || code >= VALUES.length) {
            throw new IllegalArgumentException("unknown ibv_wc_status " + code);
        }
        return VALUES[code];
    }
}
