package io.rdma.srq.api;

import java.nio.ByteBuffer;

/**
 * A delivered message kept in its receive buffer past the listener call
 * ({@link ReceiveCompletion#retain()}): no copy is made, and the buffer stays out of the SRQ until
 * {@link #release()} (or {@link #close()}). Usable from any thread. Retained buffers count against
 * the activation's bound: at most maxHeldPerConnection per connection and half of srqMaxWr in all;
 * past either, {@code retain()} copies the message to the heap instead (the buffer goes back at once,
 * counted in ActivationStatistics {@code copiedOut}) — the same interface, so the caller cannot tell
 * but by {@link #inReceiveBuffer()}.
 *
 * <p>Release it as soon as it is processed: until then a receive buffer of the shared SRQ is out of
 * use. One that becomes unreachable unreleased is released when the garbage collector finds it
 * (late). When the activation is deactivated first, the message is copied to the heap before the
 * receive buffers are freed: it stays usable, but a {@link #payload()} view taken before then throws
 * IllegalStateException — take a new one. After {@code release()} every method but
 * {@code release}/{@code close} throws IllegalStateException; the {@link #copy()} and
 * {@link #replyHandle()} taken before stay valid.
 */
public interface RetainedMessage extends SrqMessage, AutoCloseable {

    /**
     * {@return the message length in bytes (byte_len)}
     *
     * @throws IllegalStateException after release
     */
    @Override
    int length();

    /**
     * {@return a read-only view of the message bytes, usable from any thread until {@link #release()}
     *          (or, for one taken before, the activation's deactivation); it then throws
     *          IllegalStateException and never shows another message's bytes}
     *
     * @throws IllegalStateException after release
     */
    @Override
    ByteBuffer payload();

    /**
     * {@return a copy of the bytes}
     *
     * @throws IllegalStateException after release
     */
    @Override
    byte[] copyPayload();

    /**
     * {@return an owned copy (see {@link ReceivedMessage}), kept after release}
     *
     * @throws IllegalStateException after release
     */
    ReceivedMessage copy();

    /** {@return whether the sender used SEND_WITH_IMM} */
    boolean hasImmData();

    /** {@return imm_data in host byte order (0 when {@link #hasImmData()} is false)} */
    int immData();

    /** {@return the id of the connection it arrived on, never reused} */
    long connectionId();

    /** {@return the way back to the sender (ENOTCONN once the connection is gone); valid after release too} */
    ReplyHandle replyHandle();

    /**
     * {@return whether the bytes are still in the SRQ's receive buffer (false: copied to the heap,
     *          because the bound was reached or the activation was deactivated)}
     *
     * @throws IllegalStateException after release
     */
    boolean inReceiveBuffer();

    /** Gives the receive buffer back to the SRQ (reposted by the poller). Idempotent; any thread. */
    void release();

    /** As {@link #release()}. */
    @Override
    void close();
}
