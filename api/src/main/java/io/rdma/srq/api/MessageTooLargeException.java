package io.rdma.srq.api;

import java.io.Serial;

/**
 * The request does not fit the peer's send slots (EMSGSIZE above the connection definition's sendBufferSize). Nothing was sent.
 */
public final class MessageTooLargeException extends SrqCallException {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * A failure of a call to a peer.
     *
     * @param cause the failure with its operation and errno
     * @param peer  the peer's address as text
     */
    public MessageTooLargeException(VerbsException cause, String peer) {
        super(cause, peer);
    }
}
