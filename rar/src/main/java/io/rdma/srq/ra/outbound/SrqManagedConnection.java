package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.AsyncEventType;
import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.DeviceAttributes;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.PortAttributes;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.SrqLimitReached;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.support.DevicePresence;
import io.rdma.srq.ra.support.PinningBudget;
import io.rdma.srq.ra.support.PooledConnectionRegistry;
import io.rdma.srq.ra.support.RaLogger;
import io.rdma.srq.ra.support.RcConnection;
import io.rdma.srq.ra.support.admission.Admission;
import io.rdma.srq.ra.support.admission.AuthKey;
import io.rdma.srq.ra.support.Teardown;
import io.rdma.srq.verbs.AsyncEvent;
import io.rdma.srq.verbs.MemlockLimit;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.SharedReceiveQueue;
import jakarta.resource.NotSupportedException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.ConnectionEventListener;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.LocalTransaction;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionMetaData;
import javax.security.auth.Subject;
import javax.transaction.xa.XAResource;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A pooled connection: one device {@link Context}, one {@link ProtectionDomain}, a pool of named
 * SRQs whose receive side it owns ({@link PooledSrq}: one slab each, kept filled) and its peers
 * ({@link PeerLink}: RC QPs on those SRQs, matched by remote address and SRQ name and reused by
 * every handle), all owned for its whole life. The container pools it; handles
 * ({@link SrqConnectionHandle}) come and go. The connection definition's {@link ReceiveService}
 * drains its CQs, idle or not.
 *
 * <p>Device loss (IBV_EVENT_DEVICE_FATAL, or IBV_EVENT_PORT_ERR on its port) is read from the
 * context's async event queue without blocking whenever the container matches, validates or hands
 * out this connection; it makes the connection unusable and raises CONNECTION_ERROR_OCCURRED so the
 * pool destroys it. No thread is held per pooled connection. Device removal — rxe's removal waits
 * until every user has closed the device (no disassociate_ucontext) and tells only rdma_cm ids
 * (RDMA_CM_EVENT_DEVICE_REMOVAL) — is seen by the definition's {@link ReceiveService}, which services
 * idle connections too: a DEVICE_REMOVAL on any peer, or the device no longer listed
 * ({@link DevicePresence}, once a second), fails the connection the same way, so an idle pooled
 * connection releases the device promptly and the removal completes.
 *
 * <p>{@link #cleanup()} closes the handles and the memory they registered, keeps the SRQs;
 * {@link #destroy()} closes the context, which frees every native object children-first.
 */
public final class SrqManagedConnection implements ManagedConnection {
    private static final String SEND_BUFFER_SIZE = "the connection definition's sendBufferSize";

    private final SrqManagedConnectionFactory factory;
    private final SrqConfig config;
    private final java.util.List<io.rdma.srq.ra.support.admission.AuthKey> authKeys;
    private final Context context;
    private final ProtectionDomain pd;
    private final DeviceAttributes deviceAttributes;
    /** The device's name, kept for messages after the context is closed. */
    private final String device;
    private final SrqPool srqs;
    private final PeerPool peers;
    private final ReentrantLock servicing = new ReentrantLock();
    /** Read by the servicing thread only (under {@link #servicing}). */
    private final DevicePresence presence;
    /** The thread context class loader of whoever opened it (the application), for CDI events. */
    private final ClassLoader classLoader = Thread.currentThread().getContextClassLoader();
    private final Set<SrqConnectionHandle> handles = ConcurrentHashMap.newKeySet();
    private final List<ConnectionEventListener> listeners = new CopyOnWriteArrayList<>();
    private final AtomicLong limitEvents = new AtomicLong();
    private volatile boolean broken;
    private volatile boolean destroyed;
    private PrintWriter logWriter;

    private SrqManagedConnection(SrqManagedConnectionFactory factory, SrqConfig config,
                                 java.util.List<io.rdma.srq.ra.support.admission.AuthKey> authKeys, Context context,
                                 ProtectionDomain pd, DeviceAttributes deviceAttributes) {
        this.factory = factory;
        this.config = config;
        this.authKeys = authKeys;
        this.context = context;
        this.pd = pd;
        this.deviceAttributes = deviceAttributes;
        this.device = context.deviceName();
        this.presence = new DevicePresence(context, DevicePresence.PERIOD);
        this.srqs = new SrqPool(pd, deviceAttributes, device, config.receiveBufferSize());
        this.peers = new PeerPool(config.receiveBufferSize());
    }

    static SrqManagedConnection open(SrqManagedConnectionFactory factory, SrqConfig config) throws ResourceException {
        List<AuthKey> keys = factory.authKeys();
        Context context;
        try {
            context = config.device().open(factory.firstOpen() ? "pooled connections" : null); // SRQRA0050 once
        } catch (VerbsException e) {
            throw new ResourceException("cannot open the RDMA device (" + config.device() + "): " + e.getMessage(), e);
        }
        try {
            DeviceAttributes device = context.queryDevice();
            config.checkAgainst(factory.check(), device);
            new PinningBudget(MemlockLimit.ofThisProcess()).check("a pooled connection (the SRQ default's slab "
                    + "srqMaxWr × receiveBufferSize)", context.providerName(),
                    (long) config.srqDefaults().maxWr() * config.receiveBufferSize());
            SrqManagedConnection mc = new SrqManagedConnection(factory, config, keys, context, context.allocPd(), device);
            if (factory.getResourceAdapter() instanceof PooledConnectionRegistry registry) {
                registry.opened(mc);
            }
            // serviced from the start, SRQs or not: device events and a removal reach idle connections too
            factory.receiveService().register(mc);
            RaLogger.LOG.debugf("opened pooled connection on %s (%s), port %d", context.deviceName(), context.providerName(),
                    config.port());
            return mc;
        } catch (VerbsException e) {
            throw Teardown.rollback(new ResourceException(context.deviceName() + ": " + e.getMessage(), e), context);
        } catch (ResourceException | RuntimeException e) {
            Teardown.rollback(e, context);
            throw e;
        }
    }

    SrqManagedConnectionFactory factory() {
        return factory;
    }

    /** @return the connection definition's authKey keys, resolved when the pooled connection opened */
    java.util.List<io.rdma.srq.ra.support.admission.AuthKey> authKeys() {
        return authKeys;
    }

    SrqConfig config() {
        return config;
    }

    Context context() {
        return context;
    }

    ProtectionDomain pd() {
        return pd;
    }

    DeviceAttributes deviceAttributes() {
        return deviceAttributes;
    }

    /** @return how many SRQ-limit events the pooled SRQs raised */
    public long limitEvents() {
        return limitEvents.get();
    }

    /** @return the number of named SRQs in the pool */
    public int srqCount() {
        return srqs.count();
    }

    /**
     * Opens or creates a named SRQ of the pool ({@link SrqPool#open}); the connection is serviced
     * from then on.
     *
     * @param name the name
     * @param spec the requested sizes
     * @return the SRQ
     * @throws VerbsException as {@link SrqPool#open}
     */
    PooledSrq srq(String name, SrqAttributes spec) throws VerbsException {
        PooledSrq srq = srqs.open(name, spec);
        factory.receiveService().register(this);
        return srq;
    }

    /**
     * The pooled peer for {@code remote} on the SRQ {@code srqName}: the established one, or a new
     * one replacing a failed or disconnected one. An SRQ not open yet is opened with the
     * connection definition's defaults.
     *
     * @param remote  the listener's address
     * @param srqName the pooled SRQ
     * @param timeout bound for each rdma_cm step
     * @return the peer
     * @throws VerbsException as {@link #srq} and {@link RcConnection#connect}
     */
    PeerLink peer(InetSocketAddress remote, String srqName, Duration timeout) throws VerbsException {
        PeerLink link = peers.usable(remote, srqName);
        if (link != null) {
            return link;
        }
        PeerLink failed = peers.removeUnusable(remote, srqName);
        if (failed != null) {
            retire(failed);
        }
        PooledSrq srq = srqs.get(srqName);
        if (srq == null) {
            srq = srq(srqName, config.srqDefaults());
        }
        PeerPool.Placed placed = peers.place(establish(srq, remote, srqName, timeout));
        if (placed.retire() != null) {
            retire(placed.retire());
        }
        if (destroyed) {
            retire(placed.use());
            throw new IllegalStateException("the pooled connection on " + device + " is destroyed");
        }
        return placed.use();
    }

    /**
     * The one place a peer's connect is issued: an RC QP whose receives come from {@code srq},
     * its send ring registered, connected through rdma_cm.
     */
    private PeerLink establish(PooledSrq srq, InetSocketAddress remote, String srqName, Duration timeout)
            throws VerbsException {
        RcConnection rc = RcConnection.connect(pd, RcConnection.Receives.fromSrq(srq.cq(), srq.srq()),
                new RcConnection.Sends(config.sendBufferSize(), SEND_BUFFER_SIZE, true), remote, timeout,
                Admission.privateDataFor(authKeys, remote), config.fabric());
        return new PeerLink(rc, remote, srqName, factory.receiveService(), this);
    }

    /**
     * A waiting caller's poll: one servicing round without events, unless another thread (the
     * servicing loop, another caller) is in one already — then nothing, at once (a try-lock: a
     * caller never blocks on another's poll). So a reply reaches a spinning caller on the caller's
     * own thread, without a hand-off.
     *
     * @return completions taken
     */
    int pollReplies() {
        return service(false);
    }

    private void retire(PeerLink link) {
        Teardown teardown = new Teardown();
        retire(List.of(link), teardown);
        for (Exception e : teardown.failures()) {
            RaLogger.LOG.peerCloseFailed(e, link.remote());
        }
    }

    /**
     * Ends peers without losing what they sent, the one way a peer's QP is destroyed: each QP to ERR
     * (nothing more acknowledged to the peer), then the pooled CQs polled as usual — what those QPs
     * received handed to their calls or queued — until none of them has had a message for
     * {@value PeerDrain#QUIET_MS} ms ({@link PeerDrain}), then the unsolicited messages nobody took
     * discarded and counted ({@link #droppedUnsolicited()}), and only then each link closed (QP
     * destroyed: mlx5's ibv_destroy_qp removes the QP's completions from the CQ, driver note 18, so
     * they would vanish uncounted and their receive buffers never go back to the SRQ).
     *
     * @param links    the peers to end
     * @param teardown collects the close failures
     */
    private void retire(List<PeerLink> links, Teardown teardown) {
        links.forEach(PeerLink::stopArrivals);
        servicing.lock();
        try {
            PeerDrain.drain(links, this::pollSrqs);
        } finally {
            servicing.unlock();
        }
        for (PeerLink link : links) {
            int left = link.discardUnsolicited();
            if (left > 0) {
                RaLogger.LOG.unsolicitedDiscarded(left, link.remote());
            }
            peers.forget(link);
            teardown.close(link);
        }
    }

    /**
     * One round of servicing (the connection definition's {@link ReceiveService}): polls every
     * pooled SRQ's CQ once and, with {@code events}, reads the peers' rdma_cm events and the
     * device's async events. Skipped while destroy runs.
     *
     * @param events whether to read events this round
     * @return completions taken
     */
    int service(boolean events) {
        if (!servicing.tryLock()) {
            return 0;
        }
        try {
            if (destroyed) {
                return 0;
            }
            int n = pollSrqs();
            if (events) {
                Map<PeerLink, CmEventType> ended = peers.ended();
                boolean removal = ended.containsValue(CmEventType.DEVICE_REMOVAL);
                if (!ended.isEmpty()) {
                    // A peer's last SENDs were acknowledged, so their receive completions are on our
                    // CQ, before it disconnected (rdma_server replies, then calls rdma_disconnect):
                    // take them before the waiting calls fail.
                    int more;
                    while ((more = pollSrqs()) > 0) {
                        n += more;
                    }
                    ended.forEach(PeerLink::ended);
                }
                if (removal || !presence.stillListed()) {
                    fail(new VerbsException("rdma_get_cm_event", Errno.ENODEV, device + " is being removed ("
                            + (removal ? "RDMA_CM_EVENT_DEVICE_REMOVAL on a peer" : "no longer listed by ibv_get_device_list")
                            + "); the pool destroys this connection so that the removal can complete"));
                }
                isUsable();
            }
            return n;
        } finally {
            servicing.unlock();
        }
    }

    private int pollSrqs() {
        return srqs.pollAll(peers);
    }

    /** @return the peers the pool holds */
    public int peerCount() {
        return peers.count();
    }

    /** @return registered receive bytes of all pooled SRQs: their slabs, whatever the number of peers */
    public long registeredReceiveBytes() {
        return srqs.registeredBytes();
    }

    /** @return replies discarded because no call waited for them, over all its peers, alive or retired */
    public long lateReplies() {
        return peers.lateReplies();
    }

    /**
     * @return unsolicited messages discarded (queue full, no handle took them, or still queued when
     *         their peer was retired), over all its peers, alive or retired
     */
    public long droppedUnsolicited() {
        return peers.droppedUnsolicited();
    }

    /** @return unsolicited messages waiting for a {@code receive}, over all peers alive */
    long queuedUnsolicited() {
        return peers.queuedUnsolicited();
    }

    /** @return messages on QPs no longer in the pool (a retired peer's), discarded */
    public long strayMessages() {
        return peers.strayMessages();
    }

    /** @return receive completions in error (each failed its peer) */
    public long peerErrors() {
        return peers.peerErrors();
    }

    /** @return receive WRs posted and not consumed, over all pooled SRQs */
    public long outstandingReceives() {
        return srqs.outstanding();
    }

    /**
     * Reads pending async events without blocking; marks the connection broken on device loss.
     *
     * @return whether the connection is still usable
     */
    boolean isUsable() {
        if (destroyed || broken) {
            return false;
        }
        try {
            Optional<AsyncEvent> event;
            while ((event = context.getAsyncEvent(Duration.ZERO)).isPresent()) {
                handle(event.get());
            }
        } catch (VerbsException | IllegalStateException e) {
            fail(e);
        }
        return !broken;
    }

    /**
     * Background validation (the pool's {@code background-validation}, {@code validate-on-match}):
     * usable as {@link #isUsable()} says, and its port ACTIVE now (ibv_query_port(3)). A port that is
     * not ACTIVE, or a device that can no longer be queried, marks the connection broken.
     *
     * @return whether the connection is valid
     */
    boolean validate() {
        if (!isUsable()) {
            return false;
        }
        try {
            PortAttributes port = context.queryPort(config.port());
            if (!port.isActive()) {
                fail(new VerbsException("ibv_query_port", Errno.ENETDOWN, context.deviceName() + " port "
                        + config.port() + " is not ACTIVE (state " + port.state() + ")"));
            }
        } catch (VerbsException | IllegalStateException e) {
            fail(e);
        }
        return !broken;
    }

    private void handle(AsyncEvent event) {
        AsyncEventType type = event.type();
        if (type == AsyncEventType.DEVICE_FATAL || (type == AsyncEventType.PORT_ERR && event.portNum() == config.port())) {
            fail(new VerbsException("ibv_get_async_event", Errno.EIO, "IBV_EVENT_" + type + " on "
                    + context.deviceName() + (type == AsyncEventType.PORT_ERR ? " port " + event.portNum() : "")));
        } else if (type == AsyncEventType.SRQ_LIMIT_REACHED) {
            limitEvents.incrementAndGet();
            event.element(SharedReceiveQueue.class).ifPresent(this::limitReached);
        } else {
            RaLogger.LOG.debugf("async event %s on %s", type, device);
        }
    }

    private void limitReached(SharedReceiveQueue q) {
        Optional<SrqLimitReached> event = srqs.limitReached(q);
        if (event.isPresent() && factory.getResourceAdapter() instanceof PooledConnectionRegistry registry) {
            registry.limitReached(event.get(), classLoader);
        }
    }

    /**
     * An Error (OutOfMemoryError, StackOverflowError, …) ended a servicing round of this connection
     * half-way: what it had taken from the CQs may not have reached its calls, its buffers may not be
     * reposted. The connection is reported broken (CONNECTION_ERROR_OCCURRED), so the pool destroys
     * it and gives the next user a fresh one; its waiting calls fail.
     *
     * @param error what ended the round
     */
    void servicingFailed(Error error) {
        fail(new ResourceException("servicing the pooled connection on " + device + " failed: " + error, error));
    }

    private void fail(Exception cause) {
        if (broken) {
            return;
        }
        broken = true;
        RaLogger.LOG.pooledConnectionLost(device, cause.getMessage());
        VerbsException lost = new VerbsException("ibv_get_async_event", Errno.ENODEV, device + " is lost: "
                + cause.getMessage());
        for (PeerLink l : peers.all()) {
            l.fail(lost);
        }
        ConnectionEvent event = new ConnectionEvent(this, ConnectionEvent.CONNECTION_ERROR_OCCURRED, cause);
        for (ConnectionEventListener l : listeners) {
            l.connectionErrorOccurred(event);
        }
    }

    @Override
    public Object getConnection(Subject subject, ConnectionRequestInfo info) throws ResourceException {
        if (destroyed) {
            throw new jakarta.resource.spi.IllegalStateException("the pooled connection is destroyed");
        }
        if (!isUsable()) {
            throw new ResourceException("the RDMA device " + context.deviceName() + " is lost");
        }
        if (handles.isEmpty()) {
            discardUnsolicited(); // what came while it was idle in the pool was meant for its last user
        }
        SrqConnectionHandle handle = new SrqConnectionHandle(this);
        handles.add(handle);
        return handle;
    }

    /**
     * Discards (and counts, SRQRA0107) the unsolicited messages no handle took: at cleanup, and when
     * an idle pooled connection gets its next user, so one user's messages never reach the next.
     */
    private void discardUnsolicited() {
        for (PeerLink link : peers.all()) {
            int n = link.discardUnsolicited();
            if (n > 0) {
                RaLogger.LOG.unsolicitedDiscarded(n, link.remote());
            }
        }
    }

    void attach(SrqConnectionHandle handle) {
        handles.add(handle);
    }

    /** A handle was closed by the application: tell the pool. */
    void closed(SrqConnectionHandle handle) {
        handles.remove(handle);
        ConnectionEvent event = new ConnectionEvent(this, ConnectionEvent.CONNECTION_CLOSED);
        event.setConnectionHandle(handle);
        for (ConnectionEventListener l : listeners) {
            l.connectionClosed(event);
        }
    }

    @Override
    public void associateConnection(Object connection) throws ResourceException {
        if (!(connection instanceof SrqConnectionHandle handle)) {
            throw new ResourceException("not a connection handle of this adapter: " + connection);
        }
        handle.associate(this);
    }

    void detach(SrqConnectionHandle handle) {
        handles.remove(handle);
    }

    /** Closes every handle and the memory it registered (their calls still waiting get ENOTCONN); SRQs and peers stay. */
    @Override
    public void cleanup() throws ResourceException {
        Teardown teardown = new Teardown();
        invalidateHandles(teardown);
        discardUnsolicited();
        teardown.throwIfFailed(first -> new ResourceException("cleanup of " + device + ": " + first.getMessage(), first));
    }

    private void invalidateHandles(Teardown teardown) {
        for (SrqConnectionHandle h : List.copyOf(handles)) {
            h.invalidate(teardown);
        }
        handles.clear();
    }

    /** Frees every native object: the context closes SRQs, MRs, the PD children-first. */
    @Override
    public void destroy() throws ResourceException {
        if (destroyed) {
            return;
        }
        destroyed = true;
        Teardown teardown = new Teardown();
        invalidateHandles(teardown);
        servicing.lock();
        try {
            factory.receiveService().unregister(this);
            retire(peers.all(), teardown); // the QPs before their SRQs
            peers.clear();
            srqs.closeAll(teardown); // each SRQ before its slab
        } finally {
            servicing.unlock();
        }
        if (factory.getResourceAdapter() instanceof PooledConnectionRegistry registry) {
            registry.closed(this);
        }
        String provider = context.providerName();
        teardown.close(context);
        if (broken) {
            DevicePresence.releaseRemoved(provider); // a removed device: librdmacm lets go of its context too
        }
        teardown.throwIfFailed(first -> new ResourceException("destroy of " + device + ": " + first.getMessage(), first));
    }

    /** @return whether destroy has run */
    public boolean isDestroyed() {
        return destroyed;
    }

    @Override
    public void addConnectionEventListener(ConnectionEventListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeConnectionEventListener(ConnectionEventListener listener) {
        listeners.remove(listener);
    }

    @Override
    public XAResource getXAResource() throws ResourceException {
        throw new NotSupportedException("RDMA verbs connections are not transactional (NoTransaction)");
    }

    @Override
    public LocalTransaction getLocalTransaction() throws ResourceException {
        throw new NotSupportedException("RDMA verbs connections are not transactional (NoTransaction)");
    }

    @Override
    public ManagedConnectionMetaData getMetaData() {
        return new ManagedConnectionMetaData() {
            @Override
            public String getEISProductName() {
                return "RDMA verbs (" + context.providerName() + ")";
            }

            @Override
            public String getEISProductVersion() {
                return context.deviceName() + " fw " + deviceAttributes.fwVersion();
            }

            @Override
            public int getMaxConnections() {
                return deviceAttributes.maxPd();
            }

            @Override
            public String getUserName() {
                return "";
            }
        };
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    @Override
    public String toString() {
        return "SrqManagedConnection[" + device + " port " + config.port() + (broken ? ", lost" : "")
                + (destroyed ? ", destroyed" : "") + "]";
    }
}
