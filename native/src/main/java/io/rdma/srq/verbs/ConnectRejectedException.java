package io.rdma.srq.verbs;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;

import java.io.Serial;

/**
 * A connect that the listening side answered with rdma_reject(3): RDMA_CM_EVENT_REJECTED
 * (rdma_get_cm_event(3)) on the connecting id, errno {@code ECONNREFUSED}. It carries the event's
 * status (the IB CM reject reason: {@value #CONSUMER_DEFINED} {@code IB_CM_REJ_CONSUMER_DEFINED} for a
 * reject by the application, {@value #INVALID_SERVICE_ID} {@code IB_CM_REJ_INVALID_SERVICE_ID} when no
 * one listens on the port) and the reject's private data as the connecting side received it: on IB and
 * RoCE the IB CM pads it with zeros to {@value CmRequest#MAX_REJECT_PRIVATE_DATA} bytes (driver note 19),
 * so a protocol carried in it must say its own length.
 */
public final class ConnectRejectedException extends VerbsException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** {@code IB_CM_REJ_INVALID_SERVICE_ID}: no listener on that port. */
    public static final int INVALID_SERVICE_ID = 8;
    /** {@code IB_CM_REJ_CONSUMER_DEFINED}: the listening application called rdma_reject(3). */
    public static final int CONSUMER_DEFINED = 28;

    /** The event's status, the reject reason. */
    private final int rejectStatus;
    /** The reject's private data, as received. */
    private final byte[] privateData;

    /**
     * A reject as the connecting side saw it.
     *
     * @param rejectStatus the event's status (an IB CM reject reason, see the constants)
     * @param privateData  the reject's private data as received (copied), empty for none
     * @param detail       what was attempted
     */
    public ConnectRejectedException(int rejectStatus, byte[] privateData, String detail) {
        super("rdma_get_cm_event", Errno.ECONNREFUSED, "RDMA_CM_EVENT_REJECTED (status " + rejectStatus + ")"
                + (detail == null || detail.isEmpty() ? "" : " " + detail));
        this.rejectStatus = rejectStatus;
        this.privateData = privateData.clone();
    }

    /** {@return the reject reason: the RDMA_CM_EVENT_REJECTED event's status} */
    public int rejectStatus() {
        return rejectStatus;
    }

    /** {@return a copy of the reject's private data as received (zero-padded on IB and RoCE), maybe empty} */
    public byte[] privateData() {
        return privateData.clone();
    }
}
