package io.rdma.srq.api;

import java.io.Serial;

/**
 * The peer's connection is gone or in error: ENOTCONN (disconnected, or the handle closed while the call waited), EIO (a completion in error moved its QP to the error state, e.g. a reply longer than the receive buffer), ECONNREFUSED. The pooled connection re-establishes the peer on the next connect.
 */
public final class PeerUnavailableException extends SrqCallException {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * A failure of a call to a peer.
     *
     * @param cause the failure with its operation and errno
     * @param peer  the peer's address as text
     */
    public PeerUnavailableException(VerbsException cause, String peer) {
        super(cause, peer);
    }
}
