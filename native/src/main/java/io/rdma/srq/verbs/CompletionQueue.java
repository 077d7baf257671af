package io.rdma.srq.verbs;

import io.rdma.srq.api.VerbsException;

/**
 * A completion queue ({@code struct ibv_cq}, ibv_create_cq(3)). Polling and notification go
 * through the provider's fast path (the static inline ibv_poll_cq / ibv_req_notify_cq).
 */
public interface CompletionQueue extends VerbsObject {

    /** @return the actual number of entries, ≥ the requested cqe */
    int cqe();

    /**
     * ibv_poll_cq(3): moves up to {@code wcs.capacity()} work completions into {@code wcs}.
     * Allocation-free.
     *
     * @param wcs the reusable WC array to fill from index 0
     * @return the number of completions, 0 if the CQ is empty
     * @throws VerbsException {@code EINVAL} if ibv_poll_cq returns a negative value
     */
    int poll(WorkCompletionArray wcs) throws VerbsException;

    /**
     * ibv_req_notify_cq(3): arms the CQ so the next completion produces a channel event.
     *
     * @param solicitedOnly only solicited completions (and errors) notify
     * @throws VerbsException the errno ibv_req_notify_cq returns
     */
    void requestNotify(boolean solicitedOnly) throws VerbsException;
}
