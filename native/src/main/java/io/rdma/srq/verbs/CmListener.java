package io.rdma.srq.verbs;

import io.rdma.srq.api.VerbsException;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;

/**
 * A listening rdma_cm id (rdma_bind_addr(3), rdma_listen(3)) on its own event channel. Its events —
 * CONNECT_REQUEST, and ESTABLISHED / DISCONNECTED / TIMEWAIT_EXIT of the connections it accepted —
 * are taken with {@link #nextEvent}, which never blocks past its timeout. Every event is acked.
 */
public interface CmListener extends VerbsObject {

    /** {@return the bound address (with the port chosen if 0 was asked)} */
    InetSocketAddress localAddress();

    /**
     * {@return the next event, or empty on timeout}
     *
     * @param timeout the longest wait
     * @throws VerbsException the errno of poll(2) or rdma_get_cm_event
     */
    Optional<CmEvent> nextEvent(Duration timeout) throws VerbsException;
}
