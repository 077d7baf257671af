package io.rdma.srq.verbs.soft;

import io.rdma.srq.verbs.spi.EventQueue;
import io.rdma.srq.api.AsyncEventType;
import io.rdma.srq.api.DeviceAttributes;
import io.rdma.srq.api.EfaDeviceAttributes;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.PortAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.AsyncEvent;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.CompletionChannel;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.ConnectionParameters;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.RpmaPeer;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.VerbsObject;
import io.rdma.srq.verbs.XrcDomain;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;

/**
 * {@link Context} of a soft device. The asynchronous event queue (what the async fd of a real
 * context delivers) lives here: SRQ_LIMIT_REACHED, CQ_ERR and QP_LAST_WQE_REACHED are queued by the
 * objects of this context, DEVICE_FATAL and PORT_ERR by {@link SoftProvider#raiseDeviceFatal} and
 * {@link SoftProvider#raisePortError}.
 *
 * <p>Events are handed out as copies, already acknowledged (as {@link Context#getAsyncEvent} does on
 * every provider), so destroying the object an event names never waits for an ibv_ack_async_event
 * (ibv_get_async_event(3): a destroy waits for the acks of its events). An event whose object was
 * closed in the meantime is still delivered, with a {@code null} element, like the ibverbs provider
 * whose element lookup no longer finds it.
 */
final class SoftContext extends SoftResource implements Context {
    private final SoftDevice device;
    private final EventQueue<Pending> events = new EventQueue<>();

    private record Pending(AsyncEventType type, VerbsObject element, int portNum) {
    }

    SoftContext(SoftDevice device) {
        super(null, "context " + device.name(), "ibv_close_device");
        this.device = device;
        device.opened(this);
    }

    SoftDevice device() {
        return device;
    }

    SoftProfile profile() {
        return device.profile();
    }

    /**
     * Queues an asynchronous event, as the kernel does on the context's async fd.
     *
     * @param type    the event type
     * @param element the CQ, QP or SRQ it names
     */
    void queueEvent(AsyncEventType type, VerbsObject element) {
        events.add(new Pending(type, element, 0));
    }

    /**
     * Queues a port or device event (IBV_EVENT_PORT_ERR, IBV_EVENT_DEVICE_FATAL, …).
     *
     * @param type    the event type
     * @param portNum the port for port events, else 0
     */
    void queuePortEvent(AsyncEventType type, int portNum) {
        events.add(new Pending(type, null, portNum));
    }

    @Override
    public String deviceName() {
        checkOpen();
        return device.name();
    }

    @Override
    public String providerName() {
        checkOpen();
        return Verbs.SOFT;
    }

    /** {@return the profile's device attributes (for {@code soft_rxe0} those of rxe0, see {@link SoftProfile})} */
    @Override
    public DeviceAttributes queryDevice() {
        checkOpen();
        return device.profile().deviceAttributes();
    }

    /**
     * {@return the profile's port attributes}
     *
     * @param port 1, the only port
     * @throws VerbsException {@code EINVAL} for any other port
     */
    @Override
    public PortAttributes queryPort(int port) throws VerbsException {
        checkOpen();
        checkPort("ibv_query_port", port);
        PortAttributes a = device.profile().portAttributes();
        return a.state() == device.portState() ? a : a.withState(device.portState());
    }

    void checkPort(String operation, int port) throws VerbsException {
        int ports = device.profile().deviceAttributes().physPortCnt();
        if (port < 1 || port > ports) {
            throw new VerbsException(operation, Errno.EINVAL, device.name() + ": port must be in 1.." + ports
                    + ", got " + port);
        }
    }

    /**
     * ibv_query_gid(3).
     *
     * @param port  the port, 1
     * @param index 0..gid_tbl_len − 1
     * @return the 16-byte GID
     * @throws VerbsException {@code EINVAL} for a port or index out of range
     */
    @Override
    public byte[] queryGid(int port, int index) throws VerbsException {
        checkOpen();
        checkPort("ibv_query_gid", port);
        int len = device.profile().portAttributes().gidTblLen();
        if (index < 0 || index >= len) {
            throw new VerbsException("ibv_query_gid", Errno.EINVAL, device.name() + ": GID index must be in 0.."
                    + (len - 1) + ", got " + index);
        }
        return device.gid(index);
    }

    /**
     * {@return the efadv attributes on {@code soft_efa0} (every capability bit set, including those
     *         rdma-core 44's header does not name), else empty (efadv_query_device's EOPNOTSUPP)}
     */
    @Override
    public Optional<EfaDeviceAttributes> queryEfaDevice() {
        checkOpen();
        return Optional.ofNullable(device.profile().efaAttributes());
    }

    /**
     * Takes the next queued event, waiting at most {@code timeout}. Never blocks past the timeout;
     * a close of the context wakes a waiting caller, which then gets empty.
     *
     * @param timeout the longest wait; zero or negative does not wait
     * @return the event (already acknowledged), or empty on timeout, close or interrupt (the
     *         interrupt status is kept, as poll(2) returns EINTR)
     */
    @Override
    public Optional<AsyncEvent> getAsyncEvent(Duration timeout) {
        checkOpen();
        return events.take(timeout).map(p -> new AsyncEvent(p.type(),
                p.element() == null || p.element().isClosed() ? null : p.element(), p.portNum()));
    }

    static long toNanos(Duration timeout) {
        return EventQueue.toNanos(timeout);
    }

    @Override
    public ProtectionDomain allocPd() throws VerbsException {
        return open(() -> new SoftProtectionDomain(this));
    }

    @Override
    public CompletionChannel createCompletionChannel() throws VerbsException {
        return open(() -> new SoftCompletionChannel(this));
    }

    /**
     * ibv_create_cq(3). The actual size is the next power of two above {@code cqe}, minus one (rxe
     * and mlx5 size their rings so).
     *
     * @param cqe     1..max_cqe
     * @param channel a completion channel of this context, or {@code null}
     * @throws VerbsException {@code EINVAL} for cqe outside 1..max_cqe or a channel of another context
     */
    @Override
    public CompletionQueue createCq(int cqe, CompletionChannel channel) throws VerbsException {
        return open(() -> SoftCompletionQueue.create(this, cqe, channel));
    }

    /**
     * The soft rdma_cm's rdma_bind_addr(3) + rdma_listen(3) on an address of the soft host
     * ({@link SoftAddresses}; {@code 0.0.0.0} listens on all), port 0 picks a free one. Soft QPs of
     * any soft context in this JVM reach it with {@link #connect}.
     *
     * @throws VerbsException {@code EINVAL} for backlog &lt; 1, {@code EADDRNOTAVAIL} for an address no
     *                        soft netdev has, {@code EADDRINUSE} for a taken port
     */
    @Override
    public CmListener listen(InetSocketAddress address, int backlog) throws VerbsException {
        checkOpen();
        return SoftCmListener.listen(this, address, backlog);
    }

    /**
     * The soft rdma_cm's active side: CONNECT_REQUEST to the soft listener at {@code remote}, wait
     * (bounded) for accept or reject, then the QP goes RESET → RTS towards the accepting QP.
     *
     * @throws VerbsException {@code EINVAL} for a QP of another context or not an RC QP in RESET;
     *                        {@code ECONNREFUSED} ({@link io.rdma.srq.verbs.ConnectRejectedException}) without a
     *                        listener there or on a reject; {@code EINVAL} for more than 56 bytes of private data;
     *                        {@code ETIMEDOUT} without an answer in time
     */
    @Override
    public CmConnection connect(QueuePair qp, InetSocketAddress remote, Duration timeout, byte[] privateData,
                                ConnectionParameters parameters) throws VerbsException {
        checkOpen();
        Context.checkConnectPrivateData(privateData);
        return SoftCmConnection.connect(this, qp, remote, timeout, privateData,
                java.util.Objects.requireNonNull(parameters, "parameters"));
    }

    /**
     * librpma drives libibverbs only, so the soft device has no librpma peer.
     *
     * @throws VerbsException always {@code ENOSYS}
     */
    @Override
    public RpmaPeer openRpmaPeer() throws VerbsException {
        checkOpen();
        throw new VerbsException("rpma_peer_new", Errno.ENOSYS,
                "librpma needs a libibverbs device; the soft device " + device.name() + " has none (use provider=ibverbs)");
    }

    /**
     * ibv_open_xrcd(3).
     *
     * @throws VerbsException {@code EOPNOTSUPP} on a device without IBV_DEVICE_XRC (soft_rxe0,
     *                        soft_efa0), as rxe0 answers
     */
    @Override
    public XrcDomain openXrcd() throws VerbsException {
        checkOpen();
        if (!device.profile().hasXrc()) {
            throw new VerbsException("ibv_open_xrcd", Errno.EOPNOTSUPP, device.name() + " has no XRC support");
        }
        return open(() -> new SoftXrcDomain(this));
    }

    @Override
    protected void release() {
        device.closed(this);
        events.close();
    }
}
