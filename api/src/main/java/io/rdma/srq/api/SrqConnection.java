package io.rdma.srq.api;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * A pooled connection to one RDMA device port: its attributes, its named SRQs, its peers and
 * memory registration. Every method may be called from several threads at once (the peers it
 * returns are thread-safe too, see {@link SrqPeer}); close it once, when done, typically with
 * try-with-resources in the thread that got it. Any use after close throws
 * {@link IllegalStateException}.
 *
 * <p>SRQs opened here belong to the pooled connection and survive this handle (the next user of the
 * pooled connection gets the same SRQ by name); the adapter owns their receive side (see
 * {@link SrqHandle}). Peers ({@link #connect}) belong to the pooled connection too: their QPs ride
 * on one of its SRQs and are reused by the next handle that connects to the same address and SRQ,
 * so a call never pays an rdma_cm handshake after the first. Memory registered here is deregistered
 * when the handle is closed, because the application owns it.
 *
 * <p>An idle pooled connection is still serviced: one adapter thread per connection definition
 * drains the CQs of all its pooled connections and keeps their SRQs filled, so a peer's message
 * never meets an empty SRQ (receiver-not-ready) while nobody calls.
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
    DeviceAttributes deviceAttributes();

    /**
     * ibv_query_port(3) of {@link #portNumber()}.
     *
     * @return the port attributes
     * @throws VerbsException the errno of the query
     */
    PortAttributes portAttributes();

    /**
     * efadv_query_device(3).
     *
     * @return the EFA attributes, or empty for a device that is not EFA
     * @throws VerbsException any other errno
     */
    Optional<EfaDeviceAttributes> efaAttributes();

    /**
     * Opens a named SRQ of the pooled connection, creating it with {@code spec} the first time
     * (ibv_create_srq(3)). A later open of the same name returns the same SRQ; its spec must then
     * not ask for more than it has.
     *
     * <p>The SRQ is created with srq_limit 0; the adapter registers its slab (max_wr ×
     * receiveBufferSize), posts every buffer, then arms {@code spec.srqLimit()} (driver note 4).
     *
     * @param name a non-empty name, unique per connection definition
     * @param spec requested max_wr, max_sge, srq_limit
     * @return the SRQ handle, valid until this connection is closed
     * @throws VerbsException {@code EINVAL} for sizes above the device maximum or srq_limit ≥ max_wr
     *                        (the message names the field and range), {@code EEXIST} if the name is
     *                        open with a smaller size, {@code EOPNOTSUPP} on a device without SRQs
     *                        (EFA), else the errno of ibv_create_srq, ibv_reg_mr or ibv_post_srq_recv
     */
    SrqHandle openSrq(String name, SrqAttributes spec);

    /**
     * Allocates and registers memory (ibv_reg_mr(3)) for receive buffers or sends.
     *
     * @param bytes  size in bytes, ≥ 1
     * @param access access flags; receive buffers need only LOCAL_WRITE
     * @return the registered memory, deregistered and freed when this handle closes at the latest
     * @throws VerbsException {@code EINVAL} for bytes &lt; 1, else the errno of ibv_reg_mr
     */
    RegisteredMemory registerMemory(long bytes, Set<AccessFlag> access);

    /** The SRQ {@link #connect(InetSocketAddress, Duration)} attaches peers to. */
    String DEFAULT_SRQ = "default";

    /**
     * As {@link #connect(InetSocketAddress, String, Duration)} on the SRQ {@value #DEFAULT_SRQ},
     * opened with the connection definition's srqMaxWr, srqMaxSge and srqLimit.
     *
     * @param remote  the listener's address (on the soft device: any address a soft listener bound)
     * @param timeout bound for each resolution step and for the reply
     * @return the peer
     * @throws VerbsException as {@link #connect(InetSocketAddress, String, Duration)}
     */
    SrqPeer connect(InetSocketAddress remote, Duration timeout);

    /**
     * Gets a peer of the pooled connection for {@code remote} whose QP takes its receives from the
     * SRQ {@code srqName}: the one established before (same address and SRQ, still connected), or
     * a new one (rdma_resolve_addr, rdma_resolve_route, rdma_connect on a new RC QP attached to that
     * SRQ). An SRQ not open yet is opened with the connection definition's defaults. The peer lives
     * as long as the pooled connection (it does not close with this handle); a peer in error or
     * disconnected is replaced here.
     *
     * @param remote  the listener's address
     * @param srqName the pooled SRQ its receives (replies) come from
     * @param timeout bound for each resolution step and for the reply
     * @return the peer, this handle's view of it
     * @throws PeerUnavailableException ECONNREFUSED (rejected or nobody listening), EHOSTUNREACH,
     *                                  ENETUNREACH, ECONNRESET
     * @throws CallTimedOutException    ETIMEDOUT (a resolution step or the connect took longer than
     *                                  {@code timeout})
     * @throws DeviceLostException      ENODEV when the device is lost
     * @throws VerbsException           a local failure, as the verb reported it: EOPNOTSUPP on a device
     *                                  without SRQs, EINVAL for SRQ sizes the device refuses, ENOMEM, …
     */
    SrqPeer connect(InetSocketAddress remote, String srqName, Duration timeout);

    /**
     * Gets a peer for a service by name: an activation with {@code serviceName} (default: its srqName)
     * publishes its listener as that service on its node, and this peer sends each call and send to
     * one provider of the service — round robin over the providers listed now (by node, then
     * address), over one pooled peer per provider on the SRQ {@value #DEFAULT_SRQ}. Providers come
     * from the adapter's service directory: on WildFly with clustering (standalone-ha) every member's
     * activations, through WildFly's {@code ServiceProviderRegistrar} (a provider withdrawn or whose
     * node left is no longer chosen within 250 ms); elsewhere this server's own. Only providers over
     * this connection definition's provider ({@code fabric} across servers) are chosen.
     *
     * <p><b>Failover.</b> A provider whose connect fails is passed over for 1 s and the call goes to
     * the next one. A call in flight when its provider goes away ends with
     * {@link PeerUnavailableException} (ENOTCONN, as soon as the connection is seen gone) or
     * {@link CallTimedOutException} within its own timeout — never with another call's reply, and it is
     * never sent again (the provider may have run it); the next call goes to a live provider. A
     * provider that withdraws (undeploy, suspend) keeps serving for twice the directory's staleness
     * before it stops, so calls routed to it meanwhile are answered; a call its MDB refuses before
     * running it (WildFly stops an MDB's invocations at undeploy before the adapter hears of it) is
     * answered "not run" and sent to another provider within the call's timeout.
     *
     * <p>The returned peer's {@link SrqPeer#remoteAddress()} is the provider the last call or send
     * went to; {@link SrqPeer#receive} takes unsolicited messages of any of its providers;
     * {@link SrqPeer#flush} and {@link SrqPeer#sent()} cover the providers it has used.
     *
     * @param service the service name: 1 to 128 letters, digits, '.', '-' or '_'
     * @param timeout the longest this connect (and each later connect to a provider) takes
     * @return the peer; it connects to a first provider before returning
     * @throws IllegalArgumentException a name that is not a service name
     * @throws PeerUnavailableException EHOSTUNREACH when no provider is listed within 2 s (or the
     *                                  timeout, if shorter), naming the service and the members seen;
     *                                  ECONNREFUSED and the like when every provider's connect failed
     * @throws CallTimedOutException    ETIMEDOUT when no provider connected within {@code timeout}
     */
    SrqPeer connect(String service, Duration timeout);

    /**
     * Returns the connection to the pool: memory registered through it is freed and calls still
     * waiting on its peers complete with ENOTCONN; SRQs and peers stay pooled. Idempotent.
     */
    @Override
    void close();
}
