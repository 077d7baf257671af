package io.rdma.srq.ra;

import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.api.SrqLimitReached;
import io.rdma.srq.ra.cluster.LocalServiceDirectory;
import io.rdma.srq.ra.cluster.LocalSingletonElection;
import io.rdma.srq.ra.cluster.SingletonElection;
import io.rdma.srq.ra.cluster.ServiceDirectories;
import io.rdma.srq.ra.cluster.ServiceDirectory;
import io.rdma.srq.ra.inbound.events.CdiEventSink;
import io.rdma.srq.ra.inbound.events.EventSink;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.management.ActivationDirectory;
import io.rdma.srq.ra.management.DefinitionDirectory;
import io.rdma.srq.ra.management.ActivationLifecycle;
import io.rdma.srq.ra.management.ActivationView;
import io.rdma.srq.ra.management.ActivationViews;
import io.rdma.srq.ra.management.FigureStatistics;
import io.rdma.srq.ra.management.StatisticsTable;
import io.rdma.srq.ra.support.ActivationStatisticsSource;
import io.rdma.srq.ra.support.PinningBudget;
import io.rdma.srq.ra.support.PooledConnectionRegistry;
import io.rdma.srq.ra.support.RaLogger;
import io.rdma.srq.ra.support.SystemProperties;
import io.rdma.srq.ra.support.Teardown;
import io.rdma.srq.verbs.MemlockLimit;
import io.rdma.srq.ra.support.admission.KeyRing;
import jakarta.resource.spi.ConfigProperty;
import jakarta.resource.NotSupportedException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.Connector;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterInternalException;
import jakarta.resource.spi.TransactionSupport;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.WorkManager;
import org.jboss.jca.core.spi.statistics.Statistics;
import org.jboss.jca.core.spi.statistics.StatisticsPlugin;

import javax.transaction.xa.XAResource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The RDMA SRQ resource adapter. On {@link #stop()} every activation is deactivated and every pooled
 * connection still open is destroyed, so no native object outlives the adapter; each of these steps
 * is attempted whatever the others did, a failing one logged (SRQRA0003 for a pooled connection,
 * SRQRA0006 otherwise). Its statistics ({@link StatisticsTable#ADAPTER}: the
 * activations it runs, their figures summed) are WildFly's {@code .../resource-adapter=R/statistics=extended}.
 */
@Connector(displayName = "RDMA SRQ resource adapter", vendorName = "rdma-srq", eisType = "RDMA verbs",
        version = "0.1", transactionSupport = TransactionSupport.TransactionSupportLevel.NoTransaction,
        reauthenticationSupport = false)
public class SrqResourceAdapter implements ResourceAdapter, ActivationStatisticsSource, PooledConnectionRegistry,
        KeyRing.Source, ActivationViews, Statistics, ServiceDirectory.Source,
        SingletonElection.Source {
    /** Deactivation bound per activation. */
    public static final Duration DEACTIVATION_BOUND = Duration.ofSeconds(10);

    private final Set<ManagedConnection> open = ConcurrentHashMap.newKeySet();
    private final Map<MessageEndpointFactory, SrqActivation> activations = new ConcurrentHashMap<>();
    private volatile BootstrapContext bootstrap;
    /** Null outside WildFly. */
    private volatile ServerSuspendDrain suspendDrain;
    /** Null before start and after stop. */
    private volatile ServiceDirectories.Opened directory;
    /** The directory before start (a property check needs one): this JVM's. */
    private final ServiceDirectory unstarted = new LocalServiceDirectory("localhost");
    /** An election given by {@link #useSingletonElection}, else null. */
    private volatile SingletonElection electionOverride;
    /** The election before start: this node only. */
    private final SingletonElection unstartedElection = new LocalSingletonElection();
    @ConfigProperty(confidential = true, description = "Admission keys: alias=base64key entries (at least 32 bytes each) "
            + "separated by commas; set it to a credential-store expression (${ENC::...}), never to the keys themselves")
    private String authKeys = "";
    private volatile KeyRing keyRing = KeyRing.EMPTY;
    private volatile EventSink limitEvents = new CdiEventSink();
    private final FigureStatistics<List<ActivationView>> statistics =
            new FigureStatistics<>(StatisticsTable.ADAPTER, () -> Optional.of(activationViews()));

    @Override
    public void start(BootstrapContext ctx) throws ResourceAdapterInternalException {
        try {
            keyRing();
        } catch (IllegalArgumentException e) {
            throw new ResourceAdapterInternalException("the resource adapter's authKeys property: " + e.getMessage());
        }
        try {
            SystemProperties.check();
        } catch (IllegalArgumentException e) {
            throw new ResourceAdapterInternalException("system property " + e.getMessage());
        }
        this.bootstrap = ctx;
        directory = ServiceDirectories.open(SrqResourceAdapter.class.getClassLoader());
        ActivationDirectory.started(this);
        suspendDrain = ServerSuspendDrain.register(activations::values);
        RaLogger.LOG.adapterStarted();
        RaLogger.LOG.pinnedMemoryLimit(new PinningBudget(MemlockLimit.ofThisProcess()).describe());
    }

    /**
     * Stops: the management directory and the suspend registration let go, every activation
     * deactivated, every pooled connection still open destroyed. Every step is attempted whatever the
     * ones before did; a step that fails is logged (SRQRA0003 for a pooled connection, SRQRA0006
     * otherwise) and the others run on.
     */
    @Override
    public void stop() {
        attempt("leaving the management directory", () -> ActivationDirectory.stopped(this));
        attempt("letting go of the connection definitions", () -> DefinitionDirectory.stopped(this));
        ServerSuspendDrain d = suspendDrain;
        suspendDrain = null;
        if (d != null) {
            attempt("unregistering from the server's suspend controller", d::close);
        }
        for (MessageEndpointFactory f : List.copyOf(activations.keySet())) {
            attempt("deactivating " + f.getEndpointClass().getName(), () -> endpointDeactivation(f, null));
        }
        ServiceDirectories.Opened d2 = directory;
        directory = null;
        if (d2 != null) {
            attempt("letting go of the service directory", d2::close);
        }
        List<ManagedConnection> pooled = List.copyOf(open);
        open.clear();
        for (ManagedConnection mc : pooled) {
            for (Exception e : new Teardown().close(mc::destroy).failures()) {
                RaLogger.LOG.destroyAtStopFailed(e, mc);
            }
        }
        bootstrap = null;
        RaLogger.LOG.adapterStopped();
    }

    /** One step of {@link #stop()}: attempted whatever the steps before did, its failure logged (SRQRA0006). */
    private static void attempt(String step, AutoCloseable action) {
        for (Exception e : new Teardown().close(action).failures()) {
            RaLogger.LOG.stopStepFailed(e, step);
        }
    }

    /** @return the container's transaction synchronization registry, or null (not started, or none) */
    private jakarta.transaction.TransactionSynchronizationRegistry transactionRegistry() {
        BootstrapContext b = bootstrap;
        return b == null ? null : b.getTransactionSynchronizationRegistry();
    }

    /**
     * {@inheritDoc} WildFly's clustering registrar where the server has one (standalone-ha), else
     * this JVM's ({@link ServiceDirectories}).
     */
    @Override
    public ServiceDirectory serviceDirectory() {
        ServiceDirectories.Opened d = directory;
        return d == null ? unstarted : d.directory();
    }

    /**
     * {@inheritDoc} WildFly's singleton policy where the server has one (standalone-ha), else this
     * node only ({@link ServiceDirectories}).
     */
    @Override
    public SingletonElection singletonElection() {
        SingletonElection chosen = electionOverride;
        if (chosen != null) {
            return chosen;
        }
        ServiceDirectories.Opened d = directory;
        return d == null ? unstartedElection : d.election();
    }

    /**
     * Replaces the election for activations made from now on: for an embedding container with a
     * singleton service of its own, or a test. Not a configuration property.
     *
     * @param election the election; null: the adapter's own again
     */
    public void useSingletonElection(SingletonElection election) {
        this.electionOverride = election;
    }

    /** @return authKeys text (confidential) */
    public String getAuthKeys() {
        return authKeys;
    }

    /**
     * @param authKeys alias=base64key entries separated by commas; the keys activations and connection
     *                 definitions name in their authKey property
     */
    public void setAuthKeys(String authKeys) {
        this.authKeys = authKeys;
        this.keyRing = null;
    }

    /**
     * {@return the keys of authKeys, parsed once}
     *
     * @throws IllegalArgumentException naming the alias of a malformed or short key (never the key)
     */
    @Override
    public KeyRing keyRing() {
        KeyRing k = keyRing;
        if (k == null) {
            k = KeyRing.parse(authKeys);
            keyRing = k;
        }
        return k;
    }

    /** @return the container's work manager, or null before start */
    public WorkManager workManager() {
        BootstrapContext b = bootstrap;
        return b == null ? null : b.getWorkManager();
    }

    @Override
    public void opened(ManagedConnection mc) {
        open.add(mc);
    }

    @Override
    public void closed(ManagedConnection mc) {
        open.remove(mc);
    }

    @Override
    public void limitReached(SrqLimitReached event, ClassLoader classLoader) {
        limitEvents.fire(event, classLoader);
    }

    @Override
    public List<ManagedConnection> pooledConnections() {
        return List.copyOf(open);
    }

    /** @return the number of pooled connections holding native objects */
    public int openConnections() {
        return open.size();
    }

    @Override
    public synchronized void endpointActivation(MessageEndpointFactory factory, ActivationSpec spec)
            throws ResourceException {
        if (!(spec instanceof SrqActivationSpec srqSpec)) {
            throw new NotSupportedException("this adapter activates SrqActivationSpec only, got " + spec);
        }
        WorkManager wm = workManager();
        if (wm == null) {
            throw new jakarta.resource.spi.IllegalStateException("the resource adapter is not started");
        }
        SrqActivation existing = activations.get(factory);
        if (existing != null && existing.quiesced()) { // a server suspend quiesced it, then was cancelled
            endpointDeactivation(factory, spec);
        } else if (existing != null) {
            throw new NotSupportedException("the endpoint factory of " + factory.getEndpointClass().getName()
                    + " is already activated; deactivate it first");
        }
        activations.put(factory, SrqActivation.start(wm, limitEvents,
                transactionRegistry(), factory, srqSpec.config(), srqSpec.recovery()));
    }

    @Override
    public synchronized void endpointDeactivation(MessageEndpointFactory factory, ActivationSpec spec) {
        SrqActivation a = activations.remove(factory);
        if (a != null) {
            a.stop(DEACTIVATION_BOUND);
        }
    }

    @Override
    public List<ActivationStatistics> activationStatistics() {
        return activations.values().stream().map(SrqActivation::statistics).toList();
    }

    @Override
    public List<ActivationView> activationViews() {
        return activations.values().stream().map(a -> new ActivationView(a.statistics(), a.deviceState(),
                new ActivationLifecycle(a.state(), a.recoveries(), a.lostAtDeviceLoss(),
                a.loopFailures()), a)).toList();
    }

    @Override
    public StatisticsPlugin getStatistics() {
        return statistics;
    }

    /** @return the running activations */
    public List<SrqActivation> activations() {
        return List.copyOf(activations.values());
    }

    /**
     * Replaces where SRQ-limit events go (CDI by default); for tests without a container.
     *
     * @param sink the sink
     */
    public void setEventSink(EventSink sink) {
        this.limitEvents = sink;
    }

    @Override
    public XAResource[] getXAResources(ActivationSpec[] specs) {
        return new XAResource[0];
    }

    @Override
    public boolean equals(Object o) {
        return this == o;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }
}
