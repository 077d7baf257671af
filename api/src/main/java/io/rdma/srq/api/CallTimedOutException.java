package io.rdma.srq.api;

import java.io.Serial;

/**
 * The operation did not complete in time (ETIMEDOUT) — no reply within a call's timeout, a send queue that
 * stayed full, a flush or connect that took too long — or the waiting thread was interrupted (EINTR). A
 * call that timed out is over: a reply that arrives later is discarded and counted, never handed to
 * another call.
 */
public final class CallTimedOutException extends SrqCallException {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * A failure of a call to a peer.
     *
     * @param cause the failure with its operation and errno
     * @param peer  the peer's address as text
     */
    public CallTimedOutException(VerbsException cause, String peer) {
        super(cause, peer);
    }
}
