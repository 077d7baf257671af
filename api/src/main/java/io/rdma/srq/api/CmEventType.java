package io.rdma.srq.api;

/**
 * {@code enum rdma_cm_event_type} (rdma_get_cm_event(3)) in the C order; {@link #code()} is the C value.
 */
public enum CmEventType {
    /** RDMA_CM_EVENT_ADDR_RESOLVED: rdma_resolve_addr(3) found the local device and port. */
    ADDR_RESOLVED,
    /** RDMA_CM_EVENT_ADDR_ERROR: address resolution failed. */
    ADDR_ERROR,
    /** RDMA_CM_EVENT_ROUTE_RESOLVED: rdma_resolve_route(3) found a route. */
    ROUTE_RESOLVED,
    /** RDMA_CM_EVENT_ROUTE_ERROR: route resolution failed. */
    ROUTE_ERROR,
    /** RDMA_CM_EVENT_CONNECT_REQUEST: a peer asks to connect (passive side). */
    CONNECT_REQUEST,
    /** RDMA_CM_EVENT_CONNECT_RESPONSE: the listener accepted; the active side establishes. */
    CONNECT_RESPONSE,
    /** RDMA_CM_EVENT_CONNECT_ERROR: an error while establishing the connection. */
    CONNECT_ERROR,
    /** RDMA_CM_EVENT_UNREACHABLE: the peer did not answer or cannot be reached. */
    UNREACHABLE,
    /** RDMA_CM_EVENT_REJECTED: the peer rejected the request, or nothing listens there. */
    REJECTED,
    /** RDMA_CM_EVENT_ESTABLISHED: the connection is up. */
    ESTABLISHED,
    /** RDMA_CM_EVENT_DISCONNECTED: the connection is down (a side called rdma_disconnect(3)). */
    DISCONNECTED,
    /** RDMA_CM_EVENT_DEVICE_REMOVAL: the device of the id was removed. */
    DEVICE_REMOVAL,
    /** RDMA_CM_EVENT_MULTICAST_JOIN: a multicast join completed. */
    MULTICAST_JOIN,
    /** RDMA_CM_EVENT_MULTICAST_ERROR: a multicast join failed or the group went away. */
    MULTICAST_ERROR,
    /** RDMA_CM_EVENT_ADDR_CHANGE: the network address of the device of the id changed. */
    ADDR_CHANGE,
    /** RDMA_CM_EVENT_TIMEWAIT_EXIT: the QP of a closed connection left TIMEWAIT and may be reused. */
    TIMEWAIT_EXIT;

    private static final CmEventType[] VALUES = values();

    /** {@return the C value} */
    public int code() {
        return ordinal();
    }

    /**
     * {@return the constant}
     *
     * @param code a C value
     * @throws IllegalArgumentException for an unknown value
     */
    public static CmEventType of(int code) {
        if (code < 0 || code >= VALUES.length) {
            throw new IllegalArgumentException("unknown rdma_cm_event_type " + code);
        }
        return VALUES[code];
    }

    /**
     * The errno a connect attempt ending in this event reports.
     *
     * @return ECONNREFUSED for REJECTED, EHOSTUNREACH for UNREACHABLE, EADDRNOTAVAIL for ADDR_ERROR,
     *         ENETUNREACH for ROUTE_ERROR, ENODEV for DEVICE_REMOVAL, ECONNABORTED otherwise
     */
    public Errno failureErrno() {
        return switch (this) {
            case REJECTED -> Errno.ECONNREFUSED;
            case UNREACHABLE -> Errno.EHOSTUNREACH;
            case ADDR_ERROR -> Errno.EADDRNOTAVAIL;
            case ROUTE_ERROR -> Errno.ENETUNREACH;
            case DEVICE_REMOVAL -> Errno.ENODEV;
            default -> Errno.ECONNABORTED;
        };
    }
}
