package io.rdma.srq.api;

import java.nio.ByteBuffer;

/**
 * A delivered message: a successful receive work completion (ibv_poll_cq(3) {@code struct ibv_wc})
 * of the activation's SRQ and its bytes. Valid only during its listener call
 * ({@link SrqReceiveListener#onReceive}, {@link SrqBatchListener#onReceive}): the receive buffer goes
 * back to the SRQ afterwards, and every method of a completion kept past the call throws
 * IllegalStateException. What outlives the call, taken during it:
 * <ul>
 *   <li>{@link #copy()}: an owned, immutable {@link ReceivedMessage} (bytes, imm_data, connection,
 *       reply handle), usable from any thread later;</li>
 *   <li>{@link #replyHandle()}: the way back to the sender, usable from any thread later, failing
 *       with ENOTCONN once the connection is gone;</li>
 *   <li>{@link #retain()}: the message kept in its receive buffer, without a copy, until released
 *       (counted against the activation's bound);</li>
 *   <li>{@link #copyPayload()}: the bytes alone.</li>
 * </ul>
 * The work completion's wr_id (the adapter's buffer index), status (always SUCCESS: error
 * completions are never delivered) and src_qp (not valid on RC) are not exposed: they say nothing
 * about a delivered message. The connection is {@link #connectionId()}.
 */
public interface ReceiveCompletion extends SrqMessage {

    /** {@return byte_len: the message length in bytes (valid after the call too)} */
    @Override
    int length();

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
     * {@return a read-only view of the {@link #length()} message bytes, valid only during the call
     *         and on the delivering thread: a view kept past the call throws
     *         (IllegalStateException once the adapter took the buffer back, WrongThreadException on
     *         another thread) and never shows another message's bytes}
     *
     * @throws IllegalStateException after the call returned
     */
    @Override
    ByteBuffer payload();

    /** {@return a copy of the message bytes, usable after the call} */
    @Override
    byte[] copyPayload();

    /**
     * {@return an owned, immutable copy of the message (bytes, imm_data, connection id, attempt and
     *          {@link #replyHandle()}), usable from any thread after the call; it holds no receive
     *          buffer}
     *
     * @throws IllegalStateException after the call returned
     */
    ReceivedMessage copy();

    /**
     * {@return the message kept in its receive buffer until {@link RetainedMessage#release()}, usable
     *          from any thread: no copy, but a buffer of the shared SRQ is out of use meanwhile and
     *          counts against maxHeldPerConnection (per connection) and half of srqMaxWr (in all);
     *          past either the message is copied to the heap instead (counted copiedOut). A second
     *          call for the same message returns a heap copy}
     *
     * @throws IllegalStateException after the call returned
     */
    RetainedMessage retain();

    /**
     * {@return a handle that replies on this message's connection as {@link #reply(ByteBuffer)} does,
     *          kept past the call and usable from any thread; it fails with ENOTCONN once the
     *          connection is gone (a later connection on the same QP number is not it)}
     *
     * @throws IllegalStateException after the call returned
     */
    ReplyHandle replyHandle();

    /**
     * Answers the sender: posts a SEND of the remaining bytes of {@code message} on the connection
     * this message arrived on ({@link #qpNum()}; ibv_post_send(3)). Asynchronous: the bytes are copied
     * into a registered send slot before the call returns. Callable only during the call; {@link #replyHandle()} replies later.
     *
     * <p>Correlation: when the request carried immediate data ({@link #hasImmData()}), the reply is a
     * SEND_WITH_IMM echoing it, so a caller that numbers its requests in imm_data (as
     * {@code SrqPeer} calls do) matches the reply to its call; a request without immediate data gets a
     * plain SEND. {@link #reply(ByteBuffer, int)} sends the immediate data given instead.
     *
     * @param message the bytes, at most the activation's replyBufferSize
     * @throws PeerUnavailableException ENOTCONN when the connection is gone; EIO if an earlier reply on
     *                                  it completed with an error (the message names the work-completion
     *                                  status)
     * @throws MessageTooLargeException EMSGSIZE above replyBufferSize
     * @throws CallTimedOutException    ETIMEDOUT if its send queue stayed full for the activation's
     *                                  replyTimeout
     * @throws IllegalStateException after the call returned
     */
    void reply(ByteBuffer message);

    /**
     * As {@link #reply(ByteBuffer)} with immediate data (SEND_WITH_IMM).
     *
     * @param message the bytes
     * @param immData 32 bits of immediate data, in host order. An {@code SrqPeer} caller takes a number
     *                with the high bit set for the reply to its call of that number: answer a call with
     *                {@link #reply(ByteBuffer)}, which echoes it, and keep the high bit clear here
     *                unless the peer is a foreign program with its own protocol
     * @throws SrqCallException as {@link #reply(ByteBuffer)}
     */
    void reply(ByteBuffer message, int immData);
}
