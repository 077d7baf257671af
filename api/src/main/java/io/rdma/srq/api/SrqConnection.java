package io.rdma.srq.api;

import jakarta.resource.ResourceException;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * A pooled connection to one RDMA device port: its attributes, its named SRQs and memory
 * registration. Not thread-safe; use one per thread and close it when done. Any use after close
 * throws {@link IllegalStateException}.
 *
 * <p>SRQs opened here belong to the pooled connection and survive this handle (the next user of the
 * pooled connection gets the same SRQ by name); memory registered here is deregistered when the
 * handle is closed, because the application owns it.
 */
public interface SrqConnection extends AutoCloseable {

    /** {@return the device name, e.g. {@code rxe0} or {@code soft_rxe0}} */
    String deviceName();

    /** {@return the verbs provider: {@code ibverbs} or {@code soft}} */
    String providerName();

    /** {@return the port number, 1..phys_port_cnt} */
    int portNumber();

    /**
     * ibv_query_device(3).
     *
     * @return the device attributes
     * @throws VerbsException the errno of the query
     */
    DeviceAttributes deviceAttributes() throws VerbsException;

    /**
     * ibv_query_port(3) of {@link #portNumber()}.
     *
     * @return the port attributes
     * @throws VerbsException the errno of the query
     */
    PortAttributes portAttributes() throws VerbsException;

    /**
     * efadv_query_device(3).
     *
     * @return the EFA attributes, or empty for a device that is not EFA
     * @throws VerbsException any other errno
     */
    Optional<EfaDeviceAttributes> efaAttributes() throws VerbsException;

    /**
     * Opens a named SRQ of the pooled connection, creating it with {@code spec} the first time
     * (ibv_create_srq(3)). A later open of the same name returns the same SRQ; its spec must then
     * not ask for more than it has.
     *
     * @param name a non-empty name, unique per connection definition
     * @param spec requested max_wr, max_sge, srq_limit
     * @return the SRQ handle, valid until this connection is closed
     * @throws VerbsException {@code EINVAL} for sizes above the device maximum (the message names the
     *                        field and range), {@code EEXIST} if the name is open with a smaller
     *                        size, else the errno of ibv_create_srq
     */
    SrqHandle openSrq(String name, SrqAttributes spec) throws VerbsException;

    /**
     * Allocates and registers memory (ibv_reg_mr(3)) for receive buffers or sends.
     *
     * @param bytes  size in bytes, ≥ 1
     * @param access access flags; receive buffers need only LOCAL_WRITE
     * @return the registered memory, deregistered and freed when this handle closes at the latest
     * @throws VerbsException {@code EINVAL} for bytes &lt; 1, else the errno of ibv_reg_mr
     */
    RegisteredMemory registerMemory(long bytes, Set<AccessFlag> access) throws VerbsException;

    /**
     * Connects to a peer's rdma_cm listener (an SRQ activation, or any RC server) to send to it:
     * rdma_resolve_addr, rdma_resolve_route, rdma_connect on a new RC QP of this connection's device.
     *
     * @param remote  the listener's address (on the soft device: any address a soft listener bound)
     * @param timeout bound for each resolution step and for the reply
     * @return the peer, closed with this handle at the latest
     * @throws VerbsException ECONNREFUSED (rejected or nobody listening), EHOSTUNREACH, ETIMEDOUT, …
     */
    SrqPeer connect(InetSocketAddress remote, Duration timeout) throws VerbsException;

    /**
     * Returns the connection to the pool. Idempotent.
     *
     * @throws ResourceException never in practice; declared by the JCA connection contract
     */
    @Override
    void close() throws ResourceException;
}
