package io.rdma.srq.api;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * A reliable connection (RC QP over rdma_cm) from a pooled connection to a peer's listener — for
 * example an SRQ activation of this adapter — to send messages to it. Sends are asynchronous: a
 * message is copied into a registered send slot and posted (ibv_post_send(3)); a full send queue
 * makes {@link #send} wait for completions. Not thread-safe. Closed with its connection handle at
 * the latest.
 */
public interface SrqPeer extends AutoCloseable {

    /** {@return the listener's address} */
    InetSocketAddress remoteAddress();

    /**
     * Sends the remaining bytes of {@code message} (SEND).
     *
     * @param message the bytes, at most the connection definition's sendBufferSize
     * @throws VerbsException EMSGSIZE above sendBufferSize; EIO if an earlier send completed with an
     *                        error (the message names the work-completion status); ETIMEDOUT if the send
     *                        queue stayed full for 30 s
     */
    void send(ByteBuffer message) throws VerbsException;

    /**
     * Sends with immediate data (SEND_WITH_IMM); the receiver reads {@code immData} in host order.
     *
     * @param message the bytes
     * @param immData 32 bits of immediate data
     * @throws VerbsException as {@link #send(ByteBuffer)}
     */
    void send(ByteBuffer message, int immData) throws VerbsException;

    /**
     * Waits until every message sent so far has completed (the receiver's QP acknowledged it).
     *
     * @param timeout the longest wait
     * @throws VerbsException ETIMEDOUT, or EIO if a send completed with an error
     */
    void flush(Duration timeout) throws VerbsException;

    /** {@return messages sent (posted) so far} */
    long sent();

    /**
     * Disconnects (rdma_disconnect(3)) and frees the QP, CQ and send slots. Idempotent.
     *
     * @throws VerbsException the errno of a destroy
     */
    @Override
    void close() throws VerbsException;
}
