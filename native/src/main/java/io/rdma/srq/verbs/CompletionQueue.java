package io.rdma.srq.verbs;

import io.rdma.srq.api.VerbsException;

/**
 * A completion queue ({@code struct ibv_cq}, ibv_create_cq(3)). Polling and notification go
 * through the provider's fast path (the static inline ibv_poll_cq / ibv_req_notify_cq).
 */
public interface CompletionQueue extends VerbsObject {

    /** {@return the actual number of entries, ≥ the requested cqe} */
    int cqe();

    /**
     * ibv_poll_cq(3): moves up to {@code wcs.capacity()} work completions into {@code wcs}.
     * Allocation-free.
     *
     * @param wcs the reusable WC array to fill from index 0
     * @return the number of completions, 0 if the CQ is empty
     * @throws VerbsException {@code EINVAL} if ibv_poll_cq returns a negative value
     */
    default int poll(WorkCompletionArray wcs) throws VerbsException {
        return poll(wcs, wcs.capacity());
    }

    /**
     * ibv_poll_cq(3) with {@code num_entries = maxEntries}: moves at most that many completions into
     * {@code wcs} (a poller that may take only as many as it has free endpoints uses this).
     *
     * @param wcs        the reusable WC array to fill from index 0
     * @param maxEntries 1..wcs.capacity()
     * @return the number of completions, 0 if the CQ is empty
     * @throws VerbsException {@code EINVAL} if ibv_poll_cq returns a negative value
     * @throws IllegalArgumentException if maxEntries is outside 1..capacity
     */
    int poll(WorkCompletionArray wcs, int maxEntries) throws VerbsException;

    /**
     * ibv_req_notify_cq(3): arms the CQ so the next completion produces a channel event.
     *
     * @param solicitedOnly only solicited completions (and errors) notify
     * @throws VerbsException the errno ibv_req_notify_cq returns
     */
    void requestNotify(boolean solicitedOnly) throws VerbsException;
}
