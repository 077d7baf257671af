package io.rdma.srq.api;

/**
 * {@code enum rdma_cm_event_type} (rdma_get_cm_event(3)) in the C order; {@link #code()} is the C value.
 */
public enum CmEventType {
    ADDR_RESOLVED, ADDR_ERROR, ROUTE_RESOLVED, ROUTE_ERROR, CONNECT_REQUEST, CONNECT_RESPONSE, CONNECT_ERROR,
    UNREACHABLE, REJECTED, ESTABLISHED, DISCONNECTED, DEVICE_REMOVAL, MULTICAST_JOIN, MULTICAST_ERROR,
    ADDR_CHANGE, TIMEWAIT_EXIT;

    private static final CmEventType[] VALUES = values();

    /** @return the C value */
    public int code() {
        return ordinal();
    }

    /**
     * @param code a C value
     * @return the constant
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
