package io.rdma.srq.verbs;

import io.rdma.srq.api.VerbsException;

import java.net.InetSocketAddress;

/**
 * A connection request taken from a {@link CmListener}. Exactly one of {@link #accept} or
 * {@link #reject} must follow.
 */
public interface CmRequest {

    /**
     * The private data a connect may carry (rdma_connect(3), {@code rdma_conn_param.private_data_len}):
     * 56 bytes, what an InfiniBand (and RoCE) CM REQ holds after rdma_cm's own 36-byte header in the
     * TCP port space (IB_CM_REQ_PRIVATE_DATA_SIZE 92 − 36). iWARP allows more; nothing here relies on it.
     */
    int MAX_CONNECT_PRIVATE_DATA = 56;

    /** The private data a reject may carry (rdma_reject(3)): IB_CM_REJ_PRIVATE_DATA_SIZE, 148 bytes. */
    int MAX_REJECT_PRIVATE_DATA = 148;

    /**
     * {@return the peer's address: as the connect request states it (rdma_cm takes it from the
     *          request's header, which the peer writes, so on RoCE any host can claim any address)}
     */
    InetSocketAddress remoteAddress();

    /**
     * {@return the local address and port the request arrived at (the new id's source address,
     *          rdma_get_local_addr(3)): the listener's own address even when it listens on a wildcard}
     */
    InetSocketAddress localAddress();

    /**
     * {@return a copy of the private data of the request as received: on IB and RoCE the IB CM pads
     *          what the peer sent with zeros to {@value #MAX_CONNECT_PRIVATE_DATA} bytes (driver note
     *          18), so a peer that sent none is told apart only by a protocol that says its own
     *          length; may be empty (iWARP, or a provider that reports no length)}
     */
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
    default CmConnection accept(QueuePair qp) throws VerbsException {
        return accept(qp, ConnectionParameters.RDMA_CM_DEFAULTS);
    }

    /**
     * As {@link #accept(QueuePair)}, with fabric settings: the QP is moved to RTR and RTS with
     * {@code parameters} (traffic class, ACK timeout, retry_cnt, rnr_retry), and the reply carries
     * its rnr_retry_count ({@code rdma_conn_param}, rdma_accept(3)).
     *
     * @param qp         the QP, in state RESET, on the listener's context
     * @param parameters the fabric settings ({@link ConnectionParameters#RDMA_CM_DEFAULTS} for rdma_cm's)
     * @return the connection; close it after DISCONNECTED
     * @throws VerbsException as {@link #accept(QueuePair)}
     */
    CmConnection accept(QueuePair qp, ConnectionParameters parameters) throws VerbsException;

    /**
     * rdma_reject(3) without private data.
     *
     * @throws VerbsException the errno of rdma_reject
     * @throws IllegalStateException if the request was already answered
     */
    default void reject() throws VerbsException {
        reject(new byte[0]);
    }

    /**
     * rdma_reject(3) with private data (a reason, say): the connecting side's connect fails with
     * {@link ConnectRejectedException} ({@code ECONNREFUSED}) carrying it. The request's rdma_cm id is
     * destroyed either way; nothing of it stays allocated.
     *
     * @param privateData at most {@value #MAX_REJECT_PRIVATE_DATA} bytes, may be empty
     * @throws VerbsException EINVAL for more than {@value #MAX_REJECT_PRIVATE_DATA} bytes, else the errno of rdma_reject
     * @throws IllegalStateException if the request was already answered
     */
    void reject(byte[] privateData) throws VerbsException;
}
