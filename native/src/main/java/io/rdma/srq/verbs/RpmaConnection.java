package io.rdma.srq.verbs;

/**
 * A librpma connection ({@code struct rpma_conn}) whose receives come from an {@link RpmaSrq}.
 * Closing it is rpma_conn_disconnect(3), a bounded wait for RPMA_CONN_CLOSED and rpma_conn_delete(3).
 */
public interface RpmaConnection extends VerbsObject {
}
