package io.rdma.srq.verbs;

import io.rdma.srq.api.VerbsException;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;

/**
 * An rdma_cm connection ({@code struct rdma_cm_id}) of a QP the application owns. Closing it
 * disconnects if needed and destroys the id (rdma_destroy_id(3)); the QP stays the application's.
 */
public interface CmConnection extends VerbsObject {

    /** {@return the QP carrying the connection} */
    QueuePair qp();

    /** {@return the peer's address} */
    InetSocketAddress remoteAddress();

    /** {@return whether ESTABLISHED was seen and DISCONNECTED not yet} */
    boolean isEstablished();

    /**
     * rdma_disconnect(3). Idempotent; DISCONNECTED follows on the event channel.
     *
     * @throws VerbsException the errno of rdma_disconnect
     */
    void disconnect() throws VerbsException;

    /**
     * Takes the next event of an active (client) connection, which has its own event channel
     * (DISCONNECTED, TIMEWAIT_EXIT, DEVICE_REMOVAL). Passive connections get theirs through the
     * listener and return empty here.
     *
     * @param timeout the longest wait
     * @return the event, or empty on timeout
     * @throws VerbsException the errno of rdma_get_cm_event
     */
    Optional<CmEvent> nextEvent(Duration timeout) throws VerbsException;
}
