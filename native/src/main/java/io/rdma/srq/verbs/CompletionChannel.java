package io.rdma.srq.verbs;

import io.rdma.srq.api.VerbsException;

import java.time.Duration;
import java.util.Optional;

/**
 * A completion event channel ({@code struct ibv_comp_channel}, ibv_create_comp_channel(3)).
 */
public interface CompletionChannel extends VerbsObject {

    /**
     * Waits for a completion event (ibv_get_cq_event(3)), polling the channel fd with poll(2) first
     * so the wait is bounded. The event is acknowledged (ibv_ack_cq_events) before this returns; the
     * CQ must be re-armed with {@link CompletionQueue#requestNotify(boolean)} for the next one.
     *
     * @param timeout the longest wait; zero does not wait
     * @return the CQ that has new completions, or empty on timeout
     * @throws VerbsException the errno of poll(2) or ibv_get_cq_event
     */
    Optional<CompletionQueue> getCqEvent(Duration timeout) throws VerbsException;
}
