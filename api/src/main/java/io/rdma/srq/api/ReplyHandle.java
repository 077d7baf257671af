package io.rdma.srq.api;

import java.nio.ByteBuffer;

/**
 * The way back to the sender of one delivered message, kept past its listener call
 * ({@link ReceiveCompletion#replyHandle()}): usable from any thread, any time later, for as long as
 * the connection the message arrived on lasts. A reply posts a SEND on that connection's QP
 * (ibv_post_send(3)); the bytes are copied into a registered send slot before the call returns.
 *
 * <p>The handle names its connection by {@link #connectionId()}, an id never reused (QP numbers are):
 * once that connection is gone — the peer disconnected, the QP went to error, the activation was
 * deactivated — every reply fails with ENOTCONN, even when a later connection got the same QP
 * number. Thread-safe; replies from several threads on one connection are posted one at a time.
 */
public interface ReplyHandle {

    /** {@return the id of the connection the message arrived on (never reused; 0: it was already gone)} */
    long connectionId();

    /**
     * Answers the sender as {@link ReceiveCompletion#reply(ByteBuffer)} does: SEND_WITH_IMM echoing
     * the request's imm_data when it carried one (so {@code SrqPeer.call} matches the reply), a plain
     * SEND otherwise.
     *
     * @param message the remaining bytes are sent, at most the activation's replyBufferSize
     * @throws PeerUnavailableException ENOTCONN once the connection is gone; EIO if an earlier reply on
     *                                  it completed with an error (the message names the work-completion
     *                                  status)
     * @throws MessageTooLargeException EMSGSIZE above replyBufferSize
     * @throws CallTimedOutException    ETIMEDOUT if its send queue stayed full for the activation's
     *                                  replyTimeout
     */
    void reply(ByteBuffer message);

    /**
     * As {@link #reply(ByteBuffer)} with the immediate data given (SEND_WITH_IMM).
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
