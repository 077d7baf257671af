package io.rdma.srq.verbs;

import io.rdma.srq.api.VerbsException;

import java.time.Duration;
import java.util.Optional;

/** A librpma listening endpoint (rpma_ep_listen(3)). Closing it is rpma_ep_shutdown(3). */
public interface RpmaEndpoint extends VerbsObject {

    /**
     * Takes the next connection request (rpma_ep_next_conn_req(3)) with a connection configuration
     * whose receive side is {@code srq} (rpma_conn_cfg_set_srq(3)), connects it
     * (rpma_conn_req_connect(3)) and waits for RPMA_CONN_ESTABLISHED; every wait is bounded.
     *
     * @param srq     the SRQ the connection's receives come from
     * @param timeout the longest wait for a request and, again, for ESTABLISHED
     * @return the connection, or empty when no request came within the timeout
     * @throws VerbsException an {@link RpmaException}, or ETIMEDOUT / ECONNABORTED when the connection
     *                        was not established
     */
    Optional<RpmaConnection> accept(RpmaSrq srq, Duration timeout) throws VerbsException;
}
