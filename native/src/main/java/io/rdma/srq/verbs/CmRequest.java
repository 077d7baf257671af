package io.rdma.srq.verbs;

import io.rdma.srq.api.VerbsException;

import java.net.InetSocketAddress;

/**
 * A connection request taken from a {@link CmListener}. Exactly one of {@link #accept} or
 * {@link #reject} must follow.
 */
public interface CmRequest {

    /** {@return the peer's address} */
    InetSocketAddress remoteAddress();

    /** {@return the private data the peer sent (may be empty)} */
    byte[] privateData();

    /**
     * Accepts onto a QP the application created on the listener's context — typically an RC QP whose
     * receives come from a shared SRQ. The QP is moved INIT → RTR → RTS with the attributes
     * rdma_init_qp_attr(3) gives, then rdma_accept(3) sends the reply; ESTABLISHED follows on the
     * listener.
     *
     * @param qp the QP, in state RESET, on the listener's context
     * @return the connection; close it after DISCONNECTED
     * @throws VerbsException EINVAL if the QP is on another device, else the errno of ibv_modify_qp or rdma_accept
     */
    CmConnection accept(QueuePair qp) throws VerbsException;

    /**
     * rdma_reject(3).
     *
     * @throws VerbsException the errno of rdma_reject
     */
    void reject() throws VerbsException;
}
