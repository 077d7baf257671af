package io.rdma.srq.verbs;

import io.rdma.srq.api.CmEventType;

/**
 * A copy of an rdma_cm event (rdma_get_cm_event(3)), acknowledged (rdma_ack_cm_event) before it is
 * returned.
 *
 * @param type       the event type
 * @param status     the event's status (0, or a negative errno / reject reason per rdma_cm)
 * @param request    for CONNECT_REQUEST: the request to accept or reject, else null
 * @param connection the connection the event concerns (ESTABLISHED, DISCONNECTED, TIMEWAIT_EXIT,
 *                   CONNECT_ERROR, UNREACHABLE, REJECTED), else null; also null when that connection
 *                   was closed before the event was taken
 */
public record CmEvent(CmEventType type, int status, CmRequest request, CmConnection connection) {
}
