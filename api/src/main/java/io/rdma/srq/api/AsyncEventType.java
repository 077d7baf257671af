package io.rdma.srq.api;

/**
 * {@code enum ibv_event_type} (ibv_get_async_event(3)), in the C order: {@link #code()} is the
 * C value. The element an event refers to is a CQ, QP, SRQ, WQ or a port number, per the man page.
 */
public enum AsyncEventType {
    CQ_ERR, QP_FATAL, QP_REQ_ERR, QP_ACCESS_ERR, COMM_EST, SQ_DRAINED, PATH_MIG, PATH_MIG_ERR,
    DEVICE_FATAL, PORT_ACTIVE, PORT_ERR, LID_CHANGE, PKEY_CHANGE, SM_CHANGE, SRQ_ERR,
    SRQ_LIMIT_REACHED, QP_LAST_WQE_REACHED, CLIENT_REREGISTER, GID_CHANGE, WQ_FATAL;

    private static final AsyncEventType[] VALUES = values();

    /** What the event's element is. */
    public enum Element { CQ, QP, SRQ, WQ, PORT, DEVICE }

    /** @return the C enum value */
    public int code() {
        return ordinal();
    }

    /** @return which kind of object the event names, per ibv_get_async_event(3) */
    public Element element() {
        return switch (this) {
            case CQ_ERR -> Element.CQ;
            case QP_FATAL, QP_REQ_ERR, QP_ACCESS_ERR, COMM_EST, SQ_DRAINED, PATH_MIG, PATH_MIG_ERR,
                 QP_LAST_WQE_REACHED -> Element.QP;
            case SRQ_ERR, SRQ_LIMIT_REACHED -> Element.SRQ;
            case WQ_FATAL -> Element.WQ;
            case PORT_ACTIVE, PORT_ERR, LID_CHANGE, PKEY_CHANGE, SM_CHANGE, CLIENT_REREGISTER, GID_CHANGE ->
                    Element.PORT;
            case DEVICE_FATAL -> Element.DEVICE;
        };
    }

    /**
     * @param code a C {@code enum ibv_event_type} value
     * @return the constant
     * @throws IllegalArgumentException for a value this enum does not know
     */
    public static AsyncEventType of(int code) {
        if (code < 0 || code >= VALUES.length) {
            throw new IllegalArgumentException("unknown ibv_event_type " + code);
        }
        return VALUES[code];
    }
}
