package io.rdma.srq.api;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A reliable connection (RC QP over rdma_cm) from a pooled connection to a peer's listener — for
 * example an SRQ activation of this adapter, or any RC server such as rdma-core's rdma_server — to
 * send to it and to call it. The QP takes its receives from one of the pooled connection's SRQs
 * (the one named at {@link SrqConnection#connect(InetSocketAddress, String, Duration)}), so replies
 * and unsolicited messages of all peers of the pooled connection land in that SRQ's one registered
 * slab and are handed to the right caller by the adapter.
 *
 * <p><b>Lifetime.</b> The QP, its send ring and its rdma_cm connection belong to the pooled
 * connection: they live until it is destroyed (or until the peer fails) and are reused by the next
 * handle that connects to the same address and SRQ. {@link #close()} ends this handle's use only.
 *
 * <p><b>Correlation.</b> Each call numbers its request in imm_data (SEND_WITH_IMM, high bit set);
 * a peer of this adapter answers with {@link ReceiveCompletion#reply}, which echoes it, and the reply
 * goes to exactly that call. A reply whose number belongs to no waiting call (it came after its
 * call timed out or its handle closed) is discarded and counted. A foreign peer that answers with a
 * plain SEND (no immediate data) is matched in order, oldest call first, so keep one call
 * outstanding on it: until a peer has echoed a number once, a plain SEND answers the oldest call
 * posted (if that call timed out, the answer is discarded and counted as late, never given to a
 * newer call), so do not mix {@link #send} and calls on a new peer before its first call
 * returned. A call that times out on a peer that answered in order before closes that QP (one lost
 * answer would shift every later one), and the next connect re-establishes it; on a peer of this
 * adapter a timeout ends only that call. Once a peer echoed, a message with no immediate data, or
 * with imm_data whose high bit is clear, is unsolicited: it is queued for {@link #receive} (at most
 * 1024; more are dropped and counted); what no handle took is discarded and counted too when its
 * handle closes or when the pooled connection, idle meanwhile, gets its next user (SRQRA0107):
 * one user's messages are never handed to the next.
 *
 * <p><b>Threads.</b> {@link #call}, {@link #callAsync}, {@link #send} and {@link #receive} may be
 * called from several threads at once (sends are posted one at a time; each call waits for its own
 * reply, holding no lock while it waits: it spins briefly, then parks). A future of
 * {@link #callAsync} is completed on the JVM's common pool, never on the adapter's poller and never
 * on another caller's thread. Closing the handle (or this peer) completes its calls still waiting
 * with {@link PeerUnavailableException} (ENOTCONN). A synchronous caller whose thread is
 * interrupted while it waits gets {@link CallTimedOutException} with EINTR at once (its interrupt
 * status stays set).
 *
 * <p><b>Failures.</b> Every method reports a failure as a {@link SrqCallException} (unchecked, a
 * {@link VerbsException} with the operation and errno): {@link CallTimedOutException},
 * {@link PeerUnavailableException}, {@link MessageTooLargeException} or {@link DeviceLostException}.
 * Any use after close throws {@link IllegalStateException}.
 */
public interface SrqPeer extends AutoCloseable {

    /** {@return the listener's address} */
    InetSocketAddress remoteAddress();

    /**
     * Sends the remaining bytes of {@code message} (SEND).
     *
     * @param message the bytes, at most the connection definition's sendBufferSize
     * @throws MessageTooLargeException EMSGSIZE above sendBufferSize
     * @throws PeerUnavailableException EIO if an earlier send completed with an error (the message
     *                                  names the work-completion status); ENOTCONN when the peer's
     *                                  connection is gone
     * @throws CallTimedOutException    ETIMEDOUT if the send queue stayed full for 30 s
     * @throws DeviceLostException      ENODEV when the device is lost
     */
    void send(ByteBuffer message);

    /**
     * Sends with immediate data (SEND_WITH_IMM); the receiver reads {@code immData} in host order.
     * The high bit must be clear: numbers with it set are the calls' own.
     *
     * @param message the bytes
     * @param immData immediate data, 0..0x7FFFFFFF
     * @throws SrqCallException         as {@link #send(ByteBuffer)}
     * @throws IllegalArgumentException when {@code immData} has the high bit set
     */
    void send(ByteBuffer message, int immData);

    /**
     * Waits until every message sent so far has completed (the receiver's QP acknowledged it).
     *
     * @param timeout the longest wait
     * @throws CallTimedOutException    ETIMEDOUT
     * @throws PeerUnavailableException EIO if a send completed with an error; ENOTCONN when the peer's
     *                                  connection is gone
     */
    void flush(Duration timeout);

    /** {@return messages sent (posted) on the peer's QP so far, by every handle that used it} */
    long sent();

    /**
     * Sends {@code request} (its remaining bytes) and waits for the reply.
     *
     * @param request the bytes, at most sendBufferSize
     * @param timeout the longest wait for the reply, &gt; 0 and at most 365 days
     * @return the reply, a copy valid after the call
     * @throws IllegalArgumentException a timeout out of that range
     * @throws NullPointerException     a null request
     * @throws CallTimedOutException    ETIMEDOUT, naming the peer and the timeout; EINTR when the
     *                                  waiting thread was interrupted
     * @throws PeerUnavailableException ENOTCONN at once when the peer disconnects or the handle closes
     *                                  during the call; EIO when the QP went to the error state (e.g. a
     *                                  reply longer than the pooled connection's receiveBufferSize);
     *                                  ECANCELED when an activation of this adapter answered "not run":
     *                                  its endpoint refused the request before the listener ran (an MDB
     *                                  that is stopping), so it may be sent again, elsewhere
     * @throws MessageTooLargeException EMSGSIZE above sendBufferSize
     * @throws DeviceLostException      ENODEV when the device is lost
     */
    SrqMessage call(ByteBuffer request, Duration timeout);

    /**
     * As {@link #call} without waiting: the request is posted before this returns.
     *
     * @param request the bytes, at most sendBufferSize; copied before this returns
     * @param timeout the longest wait for the reply, &gt; 0 and at most 365 days
     * @return the reply's future, completed exceptionally with the exceptions {@link #call} throws;
     *         completed on the common pool, never on the adapter's poller or another caller's thread
     */
    CompletableFuture<SrqMessage> callAsync(ByteBuffer request, Duration timeout);

    /**
     * Takes the next message the peer sent on its own (not a reply to a call).
     *
     * @param timeout the longest wait, 0 (does not wait) to 365 days
     * @return the message, or empty on timeout
     * @throws PeerUnavailableException ENOTCONN when the peer's connection is gone, or when the
     *                                  handle closes while this waits (seen within 10 ms)
     * @throws IllegalArgumentException a negative timeout or one above 365 days
     */
    Optional<SrqMessage> receive(Duration timeout);

    /**
     * Ends this handle's use of the peer: its calls still waiting complete with ENOTCONN. The QP
     * stays with the pooled connection for the next user. Idempotent.
     */
    @Override
    void close();
}
