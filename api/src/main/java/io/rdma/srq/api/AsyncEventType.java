package io.rdma.srq.api;

/**
 * {@code enum ibv_event_type} (ibv_get_async_event(3)), in the C order: {@link #code()} is the
 * C value. The element an event refers to is a CQ, QP, SRQ, WQ or a port number, per the man page.
 */
public enum AsyncEventType {
    /** IBV_EVENT_CQ_ERR: a CQ overrun, completions were lost (element: the CQ). */
    CQ_ERR,
    /** IBV_EVENT_QP_FATAL: the QP hit an error it cannot report in a completion and went to ERROR. */
    QP_FATAL,
    /** IBV_EVENT_QP_REQ_ERR: the QP received a request it could not carry out. */
    QP_REQ_ERR,
    /** IBV_EVENT_QP_ACCESS_ERR: a local access violation on the QP. */
    QP_ACCESS_ERR,
    /** IBV_EVENT_COMM_EST: the first packet arrived on a QP in RTR. */
    COMM_EST,
    /** IBV_EVENT_SQ_DRAINED: the send queue of a QP in SQD has no outstanding messages. */
    SQ_DRAINED,
    /** IBV_EVENT_PATH_MIG: the QP migrated to its alternate path. */
    PATH_MIG,
    /** IBV_EVENT_PATH_MIG_ERR: migrating to the alternate path failed. */
    PATH_MIG_ERR,
    /** IBV_EVENT_DEVICE_FATAL: the device is unusable and every context must be closed (no element). */
    DEVICE_FATAL,
    /** IBV_EVENT_PORT_ACTIVE: the port went ACTIVE (element: the port number). */
    PORT_ACTIVE,
    /** IBV_EVENT_PORT_ERR: the port left ACTIVE, e.g. link down (element: the port number). */
    PORT_ERR,
    /** IBV_EVENT_LID_CHANGE: the LID of the port changed. */
    LID_CHANGE,
    /** IBV_EVENT_PKEY_CHANGE: the P_Key table of the port changed. */
    PKEY_CHANGE,
    /** IBV_EVENT_SM_CHANGE: the subnet manager of the port changed. */
    SM_CHANGE,
    /** IBV_EVENT_SRQ_ERR: the SRQ hit an error and is unusable (element: the SRQ). */
    SRQ_ERR,
    /** IBV_EVENT_SRQ_LIMIT_REACHED: fewer WRs than the armed srq_limit remain; one-shot, the limit reads 0 after it (driver note 3). */
    SRQ_LIMIT_REACHED,
    /** IBV_EVENT_QP_LAST_WQE_REACHED: a QP on an SRQ in ERROR consumes no more receives (rxe on kernel 6.1 never raises it, driver note 8). */
    QP_LAST_WQE_REACHED,
    /** IBV_EVENT_CLIENT_REREGISTER: the subnet manager asks the clients of the port to register again. */
    CLIENT_REREGISTER,
    /** IBV_EVENT_GID_CHANGE: the GID table of the port changed. */
    GID_CHANGE,
    /** IBV_EVENT_WQ_FATAL: a work queue hit an error and went to ERROR (element: the WQ). */
    WQ_FATAL;

    private static final AsyncEventType[] VALUES = values();

    /** What the event's element is. */
    public enum Element {
        /** A completion queue. */
        CQ,
        /** A queue pair. */
        QP,
        /** A shared receive queue. */
        SRQ,
        /** A work queue. */
        WQ,
        /** A port number. */
        PORT,
        /** Nothing: the event concerns the whole device. */
        DEVICE
    }

    /** {@return the C enum value} */
    public int code() {
        return ordinal();
    }

    /** {@return which kind of object the event names, per ibv_get_async_event(3)} */
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
     * {@return the constant}
     *
     * @param code a C {@code enum ibv_event_type} value
     * @throws IllegalArgumentException for a value this enum does not know
     */
    public static AsyncEventType of(int code) {
        if (code < 0 || code >= VALUES.length) {
            throw new IllegalArgumentException("unknown ibv_event_type " + code);
        }
        return VALUES[code];
    }
}
