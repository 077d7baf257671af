package io.rdma.srq.api;

import java.io.Serial;

/**
 * An application call to a peer failed — {@link SrqPeer#send send}, {@link SrqPeer#flush flush},
 * {@link SrqPeer#call call}, {@link SrqPeer#receive receive}, {@link ReplyHandle#reply reply} or
 * {@link SrqConnection#connect connect}. A {@link VerbsException} (unchecked, with the operation and
 * errno); the subclass says what the caller should do, the errno says what happened:
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
 * The message has the {@link VerbsException} form ({@code "operation: ERRNO (n, text): detail"});
 * {@link #getCause()} is the failure as the verb reported it.
 */
public abstract class SrqCallException extends VerbsException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** The peer's address as text. */
    private final String peer;

    /**
     * A failure of a call to a peer.
     *
     * @param cause the failure with its operation and errno
     * @param peer  the peer's address as text
     */
    protected SrqCallException(VerbsException cause, String peer) {
        super(cause);
        this.peer = peer;
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
        if (cause instanceof SrqCallException already) {
            return already;
        }
        if (cause.is(Errno.ETIMEDOUT) || cause.is(Errno.EINTR)) {
            return new CallTimedOutException(cause, peer);
        } else if (cause.is(Errno.EMSGSIZE)) {
            return new MessageTooLargeException(cause, peer);
        } else if (cause.is(Errno.ENODEV)) {
            return new DeviceLostException(cause, peer);
        }
        return new PeerUnavailableException(cause, peer);
    }

    /**
     * {@return a failure of {@link SrqConnection#connect connect}, grouped as {@link #of} groups a
     * call's when the peer or the path to it failed (ECONNREFUSED, ECONNRESET, EHOSTUNREACH,
     * ENETUNREACH, ENOTCONN, ETIMEDOUT, EINTR, ENODEV), or {@code cause} itself for a local failure
     * (EINVAL, EOPNOTSUPP, ENOMEM, …) that no other peer would avoid}
     *
     * @param cause the failure
     * @param peer  the peer's address as text
     */
    public static VerbsException ofConnect(VerbsException cause, String peer) {
        for (Errno e : PEER_FAILURES) {
            if (cause.is(e)) {
                return of(cause, peer);
            }
        }
        return cause;
    }

    private static final Errno[] PEER_FAILURES = {Errno.ECONNREFUSED, Errno.ECONNRESET, Errno.EHOSTUNREACH,
            Errno.ENETUNREACH, Errno.ENOTCONN, Errno.ETIMEDOUT, Errno.EINTR, Errno.ENODEV};
}
