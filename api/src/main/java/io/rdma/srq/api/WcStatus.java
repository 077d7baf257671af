package io.rdma.srq.api;

/**
 * {@code enum ibv_wc_status} (ibv_poll_cq(3)) in the C order; {@link #code()} is the C value.
 * Only {@link #SUCCESS} completions carry a valid opcode, byte_len and imm_data.
 */
public enum WcStatus {
    SUCCESS, LOC_LEN_ERR, LOC_QP_OP_ERR, LOC_EEC_OP_ERR, LOC_PROT_ERR, WR_FLUSH_ERR, MW_BIND_ERR,
    BAD_RESP_ERR, LOC_ACCESS_ERR, REM_INV_REQ_ERR, REM_ACCESS_ERR, REM_OP_ERR, RETRY_EXC_ERR,
    RNR_RETRY_EXC_ERR, LOC_RDD_VIOL_ERR, REM_INV_RD_REQ_ERR, REM_ABORT_ERR, INV_EECN_ERR,
    INV_EEC_STATE_ERR, FATAL_ERR, RESP_TIMEOUT_ERR, GENERAL_ERR, TM_ERR, TM_RNDV_INCOMPLETE;

    private static final WcStatus[] VALUES = values();

    /** @return the C enum value */
    public int code() {
        return ordinal();
    }

    /**
     * @param code a C {@code enum ibv_wc_status} value
     * @return the constant
     * @throws IllegalArgumentException for a value this enum does not know
     */
    public static WcStatus of(int code) {
        if (code < 0 || code >= VALUES.length) {
            throw new IllegalArgumentException("unknown ibv_wc_status " + code);
        }
        return VALUES[code];
    }
}
