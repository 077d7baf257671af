package io.rdma.srq.verbs;

import io.rdma.srq.api.DeviceAttributes;
import io.rdma.srq.api.EfaDeviceAttributes;
import io.rdma.srq.api.PortAttributes;
import io.rdma.srq.api.VerbsException;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;

/**
 * An open device ({@code struct ibv_context}, ibv_open_device(3)). Parent of PDs, CQs, completion
 * channels and XRC domains. Thread-safe.
 */
public interface Context extends VerbsObject {

    /** {@return the device name, e.g. {@code rxe0}} */
    String deviceName();

    /** {@return the provider that opened it} */
    String providerName();

    /**
     * ibv_query_device(3).
     *
     * @return the device attributes
     * @throws VerbsException the errno ibv_query_device returns
     */
    DeviceAttributes queryDevice() throws VerbsException;

    /**
     * ibv_query_port(3).
     *
     * @param port the port number, 1..phys_port_cnt
     * @return the port attributes
     * @throws VerbsException {@code EINVAL} for a port outside 1..phys_port_cnt, or the errno
     *                        ibv_query_port returns
     */
    PortAttributes queryPort(int port) throws VerbsException;

    /**
     * efadv_query_device(3): the EFA direct-verbs attributes.
     *
     * @return the attributes, or empty for a device that is not EFA (EOPNOTSUPP) or where libefa
     *         is not installed
     * @throws VerbsException any other errno of efadv_query_device
     */
    Optional<EfaDeviceAttributes> queryEfaDevice() throws VerbsException;

    /**
     * ibv_query_gid(3).
     *
     * @param port  the port, 1..phys_port_cnt
     * @param index the GID index, 0..gid_tbl_len − 1
     * @return the 16 bytes of the GID (all zero for an unused entry)
     * @throws VerbsException EINVAL for a port or index out of range, else the errno of ibv_query_gid
     */
    byte[] queryGid(int port, int index) throws VerbsException;

    /**
     * Waits for the next asynchronous event (ibv_get_async_event(3)), with a timeout: the async fd is
     * polled with poll(2) first, so this never blocks past {@code timeout} and never blocks a close.
     * The event is copied and acknowledged before this returns.
     *
     * @param timeout the longest wait; zero polls without waiting
     * @return the event, or empty on timeout
     * @throws VerbsException the errno of poll(2) or ibv_get_async_event
     */
    Optional<AsyncEvent> getAsyncEvent(Duration timeout) throws VerbsException;

    /**
     * ibv_alloc_pd(3).
     *
     * @return a new protection domain
     * @throws VerbsException {@code ENOMEM} (or the errno ibv_alloc_pd sets)
     */
    ProtectionDomain allocPd() throws VerbsException;

    /**
     * ibv_create_comp_channel(3).
     *
     * @return a new completion channel
     * @throws VerbsException the errno ibv_create_comp_channel sets ({@code EMFILE}, {@code ENOMEM})
     */
    CompletionChannel createCompletionChannel() throws VerbsException;

    /**
     * ibv_create_cq(3).
     *
     * @param cqe     the least number of completion entries, 1..max_cqe; the actual size
     *                ({@link CompletionQueue#cqe()}) may be larger
     * @param channel the completion channel for notifications, or {@code null} for none
     * @return a new CQ
     * @throws VerbsException {@code EINVAL} for cqe outside 1..max_cqe, else the errno ibv_create_cq sets
     */
    CompletionQueue createCq(int cqe, CompletionChannel channel) throws VerbsException;

    /**
     * Listens for rdma_cm connections on an address of this device (rdma_bind_addr(3),
     * rdma_listen(3)). Accepted connections run on QPs of this context, so they can share its SRQs.
     *
     * @param address an IP address of this device's network interface (rxe: its netdev's address), or
     *                the wildcard ({@code 0.0.0.0}, {@code ::}: every RDMA device's addresses; a request
     *                that arrives on another device than this one is rejected, since its QP could not
     *                use this context's SRQ), and a port, 0 for any
     * @param backlog pending connection requests, ≥ 1
     * @return the listener
     * @throws VerbsException EADDRNOTAVAIL if the address is not this device's, EADDRINUSE, else the
     *                        errno of rdma_bind_addr / rdma_listen
     */
    CmListener listen(InetSocketAddress address, int backlog) throws VerbsException;

    /**
     * Connects {@code qp} (an RC QP of this context, in RESET) to a listener: rdma_resolve_addr,
     * rdma_resolve_route, rdma_connect and, on the reply, RTR/RTS and rdma_establish. Every step is
     * bounded by {@code timeout}.
     *
     * @param qp      the QP
     * @param remote  the listener's address
     * @param timeout bound for each resolution step and for the reply
     * @return the established connection
     * @throws VerbsException ECONNREFUSED (REJECTED), EHOSTUNREACH (UNREACHABLE), EADDRNOTAVAIL
     *                        (ADDR_ERROR), ENETUNREACH (ROUTE_ERROR), ETIMEDOUT, EINVAL when the
     *                        address resolves to another device, else the errno of the rdma_cm call
     */
    default CmConnection connect(QueuePair qp, InetSocketAddress remote, Duration timeout) throws VerbsException {
        return connect(qp, remote, timeout, new byte[0]);
    }

    /**
     * As {@link #connect(QueuePair, InetSocketAddress, Duration)}, the request carrying private data
     * ({@code rdma_conn_param.private_data}, rdma_connect(3)) that the listener reads with
     * {@link CmRequest#privateData()}. A reject of the listener fails the connect with
     * {@link ConnectRejectedException} ({@code ECONNREFUSED}), which carries the reject's private data.
     *
     * @param qp          the QP
     * @param remote      the listener's address
     * @param timeout     bound for each resolution step and for the reply
     * @param privateData at most {@value CmRequest#MAX_CONNECT_PRIVATE_DATA} bytes, may be empty
     * @return the established connection
     * @throws VerbsException EINVAL for more than {@value CmRequest#MAX_CONNECT_PRIVATE_DATA} bytes of
     *                        private data; otherwise as the three-argument connect
     */
    default CmConnection connect(QueuePair qp, InetSocketAddress remote, Duration timeout, byte[] privateData)
            throws VerbsException {
        return connect(qp, remote, timeout, privateData, ConnectionParameters.RDMA_CM_DEFAULTS);
    }

    /**
     * As {@link #connect(QueuePair, InetSocketAddress, Duration, byte[])}, with fabric settings: the
     * QP is moved to RTR and RTS with {@code parameters} (traffic class, ACK timeout, retry_cnt,
     * rnr_retry), and the connect request carries its retry counts
     * ({@code rdma_conn_param.retry_count}, {@code rnr_retry_count}, rdma_connect(3)).
     *
     * @param qp          the QP
     * @param remote      the listener's address
     * @param timeout     bound for each resolution step and for the reply
     * @param privateData at most {@value CmRequest#MAX_CONNECT_PRIVATE_DATA} bytes, may be empty
     * @param parameters  the fabric settings ({@link ConnectionParameters#RDMA_CM_DEFAULTS} for rdma_cm's)
     * @return the established connection
     * @throws VerbsException as the four-argument connect
     */
    CmConnection connect(QueuePair qp, InetSocketAddress remote, Duration timeout, byte[] privateData,
                         ConnectionParameters parameters) throws VerbsException;

    /**
     * Checks the length of a connect's private data.
     *
     * @param privateData the bytes
     * @throws VerbsException EINVAL above {@value CmRequest#MAX_CONNECT_PRIVATE_DATA} bytes
     */
    static void checkConnectPrivateData(byte[] privateData) throws VerbsException {
        if (privateData.length > CmRequest.MAX_CONNECT_PRIVATE_DATA) {
            throw new VerbsException("rdma_connect", io.rdma.srq.api.Errno.EINVAL, "private data of "
                    + privateData.length + " bytes; a connect carries at most " + CmRequest.MAX_CONNECT_PRIVATE_DATA);
        }
    }

    /**
     * rpma_peer_new(3) on this device.
     *
     * @return a librpma peer
     * @throws VerbsException ENOSYS where librpma is not installed (Debian librpma0) or on the soft
     *                        device (librpma drives libibverbs only), else an {@link RpmaException}
     */
    RpmaPeer openRpmaPeer() throws VerbsException;

    /**
     * ibv_open_xrcd(3) (a new, anonymous XRC domain: fd −1, O_CREAT).
     *
     * @return a new XRC domain
     * @throws VerbsException {@code EOPNOTSUPP} where the device has no XRC (e.g. rxe), else the
     *                        errno ibv_open_xrcd sets
     */
    XrcDomain openXrcd() throws VerbsException;
}
