package io.rdma.srq.api;

import java.io.Serial;

/**
 * The RDMA device or its port is lost (ENODEV after IBV_EVENT_DEVICE_FATAL or IBV_EVENT_PORT_ERR). The pooled connection is destroyed by the pool; get a new connection.
 */
public final class DeviceLostException extends SrqCallException {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * A failure of a call to a peer.
     *
     * @param cause the failure with its operation and errno
     * @param peer  the peer's address as text
     */
    public DeviceLostException(VerbsException cause, String peer) {
        super(cause, peer);
    }
}
