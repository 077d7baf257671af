package io.rdma.srq.api;

import java.nio.ByteBuffer;

/**
 * A successful receive work completion (ibv_poll_cq(3) {@code struct ibv_wc}) and its message.
 * Valid only during {@link SrqReceiveListener#onReceive}: the buffer goes back to the SRQ after the
 * call. Use {@link #copyPayload()} to keep the bytes.
 */
public interface ReceiveCompletion {

    /** @return wr_id of the receive WR (the adapter's buffer index) */
    long wrId();

    /** @return the status: always {@link WcStatus#SUCCESS} for delivered completions */
    WcStatus status();

    /** @return byte_len: message length in bytes */
    int byteLen();

    /** @return whether the sender used SEND_WITH_IMM (IBV_WC_WITH_IMM) */
    boolean hasImmData();

    /** @return imm_data in host byte order (0 when {@link #hasImmData()} is false) */
    int immData();

    /** @return src_qp: the sender's QP number */
    int srcQp();

    /** @return qp_num: the local QP (the connection) the message arrived on */
    int qpNum();

    /**
     * @return a read-only view of the {@link #byteLen()} message bytes, valid only during the call
     * @throws IllegalStateException after the call returned
     */
    ByteBuffer payload();

    /** @return a copy of the message bytes, usable after the call */
    byte[] copyPayload();
}
