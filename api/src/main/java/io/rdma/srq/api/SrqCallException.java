package io.rdma.srq.api;

import java.io.Serial;

/**
 * A request/reply call or send through an {@link SrqPeer} failed. Unchecked; the subclass says
 * what the caller should do, the errno says what happened:
 * <ul>
 *   <li>{@link CallTimedOutException}: no reply in time ({@code ETIMEDOUT}), or the waiting thread
 *       was interrupted ({@code EINTR}); retry or give up</li>
 *   <li>{@link PeerUnavailableException}: the peer's connection is gone or in error
 *       ({@code ENOTCONN}, {@code EIO}, {@code ECONNREFUSED}, …); the next connect re-establishes it</li>
 *   <li>{@link MessageTooLargeException}: the request exceeds sendBufferSize ({@code EMSGSIZE}); fix the
 *       size or the connection definition</li>
 *   <li>{@link DeviceLostException}: the RDMA device or port is lost; the pooled connection is
 *       destroyed, get a new one</li>
 * </ul>
 * The message has the {@link VerbsException} form ({@code "operation: ERRNO (n, text): detail"}).
 */
public abstract class SrqCallException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** The positive errno value. */
    private final int errno;
    /** The peer's address as text. */
    private final String peer;

    /**
     * A failure of a call to a peer.
     *
     * @param cause the failure with its operation and errno
     * @param peer  the peer's address as text
     */
    protected SrqCallException(VerbsException cause, String peer) {
        super(cause.getMessage(), cause);
        this.errno = cause.errno();
        this.peer = peer;
    }

    /** {@return the positive errno value, e.g. 110 for ETIMEDOUT} */
    public int errno() {
        return errno;
    }

    /** {@return the errno's symbolic name, e.g. {@code "ETIMEDOUT"}} */
    public String errnoName() {
        return Errno.nameOf(errno);
    }

    /** {@return the peer's address, as {@link java.net.InetSocketAddress#toString()} gives it} */
    public String peer() {
        return peer;
    }

    /**
     * {@return the unchecked exception for a failure, grouped by what the caller should do}:
     * ETIMEDOUT and EINTR → {@link CallTimedOutException}; EMSGSIZE → {@link MessageTooLargeException};
     * ENODEV → {@link DeviceLostException}; anything else → {@link PeerUnavailableException}.
     *
     * @param cause the failure
     * @param peer  the peer's address as text
     */
    public static SrqCallException of(VerbsException cause, String peer) {
        if (cause.is(Errno.ETIMEDOUT) || cause.is(Errno.EINTR)) {
            return new CallTimedOutException(cause, peer);
        } else if (cause.is(Errno.EMSGSIZE)) {
            return new MessageTooLargeException(cause, peer);
        } else if (cause.is(Errno.ENODEV)) {
            return new DeviceLostException(cause, peer);
        }
        return new PeerUnavailableException(cause, peer);
    }
}
