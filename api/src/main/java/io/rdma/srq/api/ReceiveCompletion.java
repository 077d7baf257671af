package io.rdma.srq.api;

import java.nio.ByteBuffer;

/**
 * A successful receive work completion (ibv_poll_cq(3) {@code struct ibv_wc}) and its message.
 * Valid only during {@link SrqReceiveListener#onReceive}: the buffer goes back to the SRQ after the
 * call. Use {@link #copyPayload()} to keep the bytes, and {@link #reply} to answer the sender.
 */
public interface ReceiveCompletion {

    /** {@return wr_id of the receive WR (the adapter's buffer index)} */
    long wrId();

    /** {@return the status: always {@link WcStatus#SUCCESS} for delivered completions} */
    WcStatus status();

    /** {@return byte_len: message length in bytes} */
    int byteLen();

    /** {@return whether the sender used SEND_WITH_IMM (IBV_WC_WITH_IMM)} */
    boolean hasImmData();

    /** {@return imm_data in host byte order (0 when {@link #hasImmData()} is false)} */
    int immData();

    /**
     * {@return src_qp as the device reports it: the sender's QP number on UD, but not to be relied on
     * for these RC connections} ibv_poll_cq(3) calls src_qp valid for UD only; rxe leaves it 0 on RC
     * (rxe_resp.c sets it only from a DETH, as measured on rxe0), mlx5 reports the sender's QP. The
     * connection a message came on is {@link #qpNum()}, the local QP.
     */
    int srcQp();

    /** {@return qp_num: the local QP (the connection) the message arrived on} */
    int qpNum();

    /**
     * {@return the id of the connection the message arrived on: unique within the adapter's run and
     *         never reused, unlike QP numbers (a device hands a destroyed QP's number to a later QP);
     *         the same id names the connection in {@link SrqDeadLetter}; 0 if the connection was
     *         already gone when the message was polled}
     */
    long connectionId();

    /** {@return which delivery attempt this is, from 1 (above 1: a redelivery after a failed one)} */
    int deliveryAttempt();

    /**
     * {@return a read-only view of the {@link #byteLen()} message bytes, valid only during the call
     *         and on the delivering thread: a view kept past the call throws
     *         (IllegalStateException once the adapter took the buffer back, WrongThreadException on
     *         another thread) and never shows another message's bytes}
     *
     * @throws IllegalStateException after the call returned
     */
    ByteBuffer payload();

    /** {@return a copy of the message bytes, usable after the call} */
    byte[] copyPayload();

    /**
     * Answers the sender: posts a SEND of the remaining bytes of {@code message} on the connection
     * this message arrived on ({@link #qpNum()}; ibv_post_send(3)). Asynchronous: the bytes are copied
     * into a registered send slot before the call returns. Callable only during the call.
     *
     * <p>Correlation: when the request carried immediate data ({@link #hasImmData()}), the reply is a
     * SEND_WITH_IMM echoing it, so a caller that numbers its requests in imm_data (as
     * {@code SrqPeer} calls do) matches the reply to its call; a request without immediate data gets a
     * plain SEND. {@link #reply(ByteBuffer, int)} sends the immediate data given instead.
     *
     * @param message the bytes, at most the activation's replyBufferSize
     * @throws VerbsException EMSGSIZE above replyBufferSize; ENOTCONN when the connection is gone;
     *                        EIO if an earlier reply on it completed with an error (the message names
     *                        the work-completion status); ETIMEDOUT if its send queue stayed full 30 s
     * @throws IllegalStateException after the call returned
     */
    void reply(ByteBuffer message) throws VerbsException;

    /**
     * As {@link #reply(ByteBuffer)} with immediate data (SEND_WITH_IMM).
     *
     * @param message the bytes
     * @param immData 32 bits of immediate data, in host order
     * @throws VerbsException as {@link #reply(ByteBuffer)}
     */
    void reply(ByteBuffer message, int immData) throws VerbsException;
}
