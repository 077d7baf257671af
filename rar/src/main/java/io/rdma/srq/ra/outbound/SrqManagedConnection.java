package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.AsyncEventType;
import io.rdma.srq.api.DeviceAttributes;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.PortAttributes;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.support.PooledConnectionRegistry;
import io.rdma.srq.ra.support.Teardown;
import io.rdma.srq.verbs.AsyncEvent;
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
import org.jboss.logging.Logger;

import javax.security.auth.Subject;
import javax.transaction.xa.XAResource;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A pooled connection: one device {@link Context}, one {@link ProtectionDomain} and a pool of
 * named SRQs, owned for its whole life. The container pools it; handles
 * ({@link SrqConnectionHandle}) come and go.
 *
 * <p>Device loss (IBV_EVENT_DEVICE_FATAL, or IBV_EVENT_PORT_ERR on its port) is read from the
 * context's async event queue without blocking whenever the container matches, validates or hands
 * out this connection; it makes the connection unusable and raises CONNECTION_ERROR_OCCURRED so the
 * pool destroys it. No thread is held per pooled connection.
 *
 * <p>{@link #cleanup()} closes the handles and the memory they registered, keeps the SRQs;
 * {@link #destroy()} closes the context, which frees every native object children-first.
 */
public final class SrqManagedConnection implements ManagedConnection {
    private static final Logger LOG = Logger.getLogger(SrqManagedConnection.class);

    private final SrqManagedConnectionFactory factory;
    private final SrqConfig config;
    private final java.util.List<io.rdma.srq.ra.support.admission.AuthKey> authKeys;
    private final Context context;
    private final ProtectionDomain pd;
    private final DeviceAttributes deviceAttributes;
    /** The device's name, kept for messages after the context is closed. */
    private final String device;
    private final Map<String, SharedReceiveQueue> srqs = new ConcurrentHashMap<>();
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
    }

    static SrqManagedConnection open(SrqManagedConnectionFactory factory, SrqConfig config) throws ResourceException {
        java.util.List<io.rdma.srq.ra.support.admission.AuthKey> keys = factory.authKeys();
        Context context;
        try {
            context = config.device().open();
        } catch (VerbsException e) {
            throw new ResourceException("cannot open the RDMA device (" + config.device() + "): " + e.getMessage(), e);
        }
        try {
            DeviceAttributes device = context.queryDevice();
            PortAttributes port = context.queryPort(Math.min(config.port(), Math.max(1, device.physPortCnt())));
            config.checkAgainst(factory.check(), device, config.port() <= device.physPortCnt() ? port : null);
            SrqManagedConnection mc = new SrqManagedConnection(factory, config, keys, context, context.allocPd(), device);
            if (factory.getResourceAdapter() instanceof PooledConnectionRegistry registry) {
                registry.opened(mc);
            }
            LOG.debugf("opened pooled connection on %s (%s), port %d", context.deviceName(), context.providerName(),
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
        return srqs.size();
    }

    /**
     * Opens or creates a named SRQ of the pool.
     *
     * @param name the name
     * @param spec the requested sizes
     * @return the SRQ
     * @throws VerbsException EINVAL for a bad name, EEXIST if open with less than asked, else the create errno
     */
    SharedReceiveQueue srq(String name, SrqAttributes spec) throws VerbsException {
        if (name == null || name.isBlank()) {
            throw new VerbsException("ibv_create_srq", Errno.EINVAL, "the SRQ name must not be empty");
        }
        SharedReceiveQueue existing = srqs.get(name);
        if (existing == null) {
            synchronized (srqs) {
                existing = srqs.get(name);
                if (existing == null) {
                    SharedReceiveQueue created = pd.createSrq(spec);
                    srqs.put(name, created);
                    return created;
                }
            }
        }
        if (existing.maxWr() < spec.maxWr() || existing.maxSge() < spec.maxSge()) {
            throw new VerbsException("ibv_create_srq", Errno.EEXIST, "SRQ '" + name + "' is open with max_wr "
                    + existing.maxWr() + ", max_sge " + existing.maxSge() + "; asked for max_wr " + spec.maxWr()
                    + ", max_sge " + spec.maxSge());
        }
        return existing;
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

    private void handle(AsyncEvent event) {
        AsyncEventType type = event.type();
        if (type == AsyncEventType.DEVICE_FATAL || (type == AsyncEventType.PORT_ERR && event.portNum() == config.port())) {
            fail(new VerbsException("ibv_get_async_event", Errno.EIO, "IBV_EVENT_" + type + " on "
                    + context.deviceName() + (type == AsyncEventType.PORT_ERR ? " port " + event.portNum() : "")));
        } else if (type == AsyncEventType.SRQ_LIMIT_REACHED) {
            limitEvents.incrementAndGet();
            LOG.debugf("SRQ limit reached on %s: %s", context.deviceName(), event.element());
        } else {
            LOG.debugf("async event %s on %s", type, context.deviceName());
        }
    }

    private void fail(Exception cause) {
        if (broken) {
            return;
        }
        broken = true;
        LOG.warnf("pooled connection on %s lost: %s", context.deviceName(), cause.getMessage());
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
        SrqConnectionHandle handle = new SrqConnectionHandle(this);
        handles.add(handle);
        return handle;
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

    /** Closes every handle and the memory it registered; the SRQ pool stays. */
    @Override
    public void cleanup() throws ResourceException {
        Teardown teardown = new Teardown();
        invalidateHandles(teardown);
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
        srqs.clear();
        if (factory.getResourceAdapter() instanceof PooledConnectionRegistry registry) {
            registry.closed(this);
        }
        teardown.close(context)
                .throwIfFailed(first -> new ResourceException("destroy of " + device + ": " + first.getMessage(), first));
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
