package io.rdma.srq.verbs;

import io.rdma.srq.api.VerbsException;

/**
 * A librpma peer (rpma_peer_new(3)) on an open device. librpma 1.2 (Debian librpma0, archived
 * upstream) is used as is; where it has no call (SRQ modify, query, limit), {@link RpmaSrq} reaches
 * the underlying {@code ibv_srq} through the verbs layer.
 */
public interface RpmaPeer extends VerbsObject {

    /**
     * rpma_srq_new(3).
     *
     * @param config sizes, or {@code null} for librpma's defaults (rq_size 20, rcq_size 20)
     * @return the SRQ (created with srq_limit 0 and max_sge 1, as librpma does)
     * @throws VerbsException an {@link RpmaException}: RPMA_E_INVAL, RPMA_E_NOMEM or RPMA_E_PROVIDER
     */
    RpmaSrq createSrq(RpmaSrqConfig config) throws VerbsException;

    /**
     * Allocates memory and registers it for receives (rpma_mr_reg(3) with RPMA_MR_USAGE_RECV).
     *
     * @param bytes size in bytes, ≥ 1
     * @return the registered memory, freed after rpma_mr_dereg when closed
     * @throws VerbsException an {@link RpmaException}
     */
    RpmaMemory registerForReceive(long bytes) throws VerbsException;

    /**
     * rpma_ep_listen(3).
     *
     * @param address an IP address of this peer's device
     * @param port    the port
     * @return the endpoint
     * @throws VerbsException an {@link RpmaException} (RPMA_E_PROVIDER with the errno of rdma_bind_addr)
     */
    RpmaEndpoint listen(String address, int port) throws VerbsException;
}
