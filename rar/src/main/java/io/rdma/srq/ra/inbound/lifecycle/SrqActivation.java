package io.rdma.srq.ra.inbound.lifecycle;

import io.rdma.srq.ra.cluster.SingletonElection;
import io.rdma.srq.ra.inbound.config.InboundConfig;
import io.rdma.srq.ra.inbound.connections.ControlLoop;
import io.rdma.srq.ra.inbound.events.EventSink;
import io.rdma.srq.ra.inbound.events.Fault;
import io.rdma.srq.ra.inbound.events.ObserverDispatch;

import io.rdma.srq.api.ActivationState;
import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.api.SrqDeviceStateChanged;
import io.rdma.srq.ra.management.ActivationControl;
import io.rdma.srq.ra.management.DeviceState;
import io.rdma.srq.ra.support.DevicePresence;
import io.rdma.srq.ra.support.RaLogger;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkManager;
import jakarta.transaction.TransactionSynchronizationRegistry;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One message-endpoint activation over its life, a state machine ({@link ActivationState}):
 * <pre>
 *   STARTING ─▶ ACTIVE ─▶ RECOVERING ─▶ ACTIVE … ; FAILED ; any ─▶ STOPPED
 * </pre>
 * Each time the device is opened the activation runs an {@link ActivationRun} (device, PD, SRQ,
 * CQ, slab, listener, {@code connectTo} connections, and the Works that serve them).
 * <ul>
 *   <li><b>Activation</b> ({@link #start}) tries once on the caller's thread, so an error that will
 *       not go away (a property beyond a device limit, EINVAL, EADDRINUSE, …) still fails it at once
 *       with the property or errno named. When the device or the listen address is not there yet
 *       (ENODEV, EADDRNOTAVAIL, ENETDOWN: {@link OpenFailure}) it returns STARTING, logs SRQRA0403,
 *       and a {@link Recovery} Work retries with {@link Backoff} until the run opens (ACTIVE,
 *       SRQRA0402).</li>
 *   <li><b>Port outage</b> — IBV_EVENT_PORT_ERR with no port left ACTIVE — makes it RECOVERING
 *       (WARN SRQRA0406) with its run kept: nothing is freed while the link is down (driver note 25),
 *       and IBV_EVENT_PORT_ACTIVE makes it ACTIVE again (SRQRA0407), counted as a recovery. A device
 *       loss during the outage is handled as below.</li>
 *   <li><b>Device loss</b> — IBV_EVENT_DEVICE_FATAL, RDMA_CM_EVENT_DEVICE_REMOVAL on any of the run's
 *       rdma_cm ids, the device no longer listed — makes it RECOVERING (WARN
 *       SRQRA0400): the Recovery Work stops the run as deactivation does (arrivals stopped, what the CQ
 *       still yields delivered within drainTimeout, the rest counted {@code lost-at-device-loss},
 *       SRQRA0401), frees every native object of the device (rxe's removal waits for exactly that),
 *       and opens a new run with backoff: listening again and connecting {@code connectTo} again.
 *       Messages delivered stay delivered; nothing is delivered twice (the new run has new buffers).</li>
 *   <li><b>A dead loop</b> — the run's poller, control loop or connector ended by an exception or an
 *       Error (OutOfMemoryError, a LinkageError, …) while it should have gone on — makes it RECOVERING
 *       the same way (WARN SRQRA0408, counted in {@link #loopFailures()}): the run is stopped as
 *       deactivation stops it (what its CQ holds delivered within drainTimeout — swept and counted
 *       {@code undelivered} when the poller is the dead one), and a new run is opened with the same
 *       backoff.</li>
 *   <li><b>Cluster singleton</b> ({@code clusterSingleton=true}): the activation joins the adapter's
 *       {@link SingletonElection} under its singleton name ({@code serviceName}, else its name) and
 *       opens only while this node is elected (STANDBY otherwise, SRQRA0509). Deposed, it stops its run
 *       as deactivation does (withdrawn first, what was accepted delivered within drainTimeout) and is
 *       STANDBY again (SRQRA0512); it leaves the election only after its run stopped — at deactivation,
 *       at a suspend's quiesce, on FAILED — so two nodes never deliver at once.</li>
 *   <li>Every change of state fires {@link SrqDeviceStateChanged} to the application's observers on
 *       a Work of its own; counters keep growing across runs ({@link RunTotals}).</li>
 * </ul>
 */
public final class SrqActivation implements ActivationControl {
    private final String name;
    private final WorkManager wm;
    private final EventSink sink;
    private final TransactionSynchronizationRegistry tsr;
    private final MessageEndpointFactory factory;
    private final InboundConfig config;
    private final Backoff backoff;
    private final ObserverDispatch events;
    private final RunTotals totals = new RunTotals();
    private final AtomicLong recoveries = new AtomicLong();
    private final AtomicLong loopFailures = new AtomicLong();
    private final AtomicLong failedOpens = new AtomicLong();
    private final Object lock = new Object();
    // guarded by lock
    private ActivationState state = ActivationState.STARTING;
    private ActivationRun run;
    private int generation;
    private Recovery recovery;
    /** Set by {@link #quiesce}: no run opens any more. */
    private volatile boolean quiesced;
    /** A loss reported by the run being opened, before it became current: handled once it is. */
    private Fault pendingFault;
    private long recoveringSince;
    private ActivationState recoveringFrom;
    /** Whether the run being ended lost its device (false: one of its loops died on a working device). */
    private boolean deviceGone = true;
    /** Whether the current run is RECOVERING from a port outage (kept, waiting for PORT_ACTIVE). */
    private boolean portsDown;
    private String device;
    /** The provider of the last run opened, null before the first. */
    private volatile String lastProvider;
    /** With clusterSingleton: the candidacy in the adapter's election (null otherwise, and once left). */
    private volatile SingletonElection.Candidacy candidacy;
    /** Set once the activation leaves the election for good (FAILED, quiesced, stopped). */
    private volatile boolean leaveRequested;
    /** Paused by management ({@link #pauseDelivery()}) until resumed: applied to every new run. */
    private volatile boolean held;

    private SrqActivation(WorkManager wm, EventSink sink, TransactionSynchronizationRegistry tsr,
                          MessageEndpointFactory factory, InboundConfig config, Backoff backoff) {
        this.wm = wm;
        this.sink = sink;
        this.tsr = tsr;
        this.factory = factory;
        this.config = config;
        this.backoff = backoff;
        this.name = config.srqName().isEmpty() ? factory.getEndpointClass().getSimpleName() : config.srqName();
        this.device = config.device().device().isEmpty() ? config.device().provider().verbsName() : config.device().device();
        this.events = new ObserverDispatch(name, wm, sink, factory.getEndpointClass().getClassLoader());
    }

    /**
     * Activates: opens the device and every native object on this thread and starts the run's Works
     * (ACTIVE); when the device or the listen address is not there yet, returns STARTING and opens
     * them later in a Work, with backoff.
     *
     * @param wm      the container's work manager
     * @param sink    where limit events, dead letters and state changes go
     * @param tsr     the container's transaction synchronization registry; null without one
     * @param factory the endpoint factory
     * @param config  the checked configuration
     * @param backoff the waits between attempts to open the device
     * @return the activation, ACTIVE or STARTING
     * @throws ResourceException naming the bad property (a device limit), or the verbs error with its
     *                           errno, when retrying cannot cure it; or when the Work cannot be scheduled
     */
    public static SrqActivation start(WorkManager wm, EventSink sink, TransactionSynchronizationRegistry tsr,
                                      MessageEndpointFactory factory, InboundConfig config, Backoff backoff)
            throws ResourceException {
        SrqActivation a = new SrqActivation(wm, sink, tsr, factory, config, backoff);
        if (config.clusterSingleton() && !a.joinElection()) {
            return a; // STANDBY: opened once elected
        }
        try {
            a.openRun();
        } catch (ResourceException e) {
            if (!OpenFailure.isTransient(e)) {
                a.leaveElection();
                throw e;
            }
            a.deferred(e);
        }
        return a;
    }

    /** {@return the singleton's name: serviceName when set, else the activation's name} */
    public String singletonName() {
        return config.serviceName() == null || config.serviceName().isEmpty() ? name : config.serviceName();
    }

    /**
     * Joins the adapter's election (clusterSingleton=true).
     *
     * @return whether this node is the primary at once (the local election): open now
     * @throws ResourceException naming clusterSingleton when this node has a candidate of that name already,
     *                           or singletonPolicy when the server has no such policy
     */
    private boolean joinElection() throws ResourceException {
        synchronized (lock) {
            state = ActivationState.STANDBY;
        }
        try {
            candidacy = config.election().join(singletonName(), config.singletonPolicy(), new SingletonElection.Candidate() {
                @Override
                public void elected() {
                    SrqActivation.this.elected();
                }

                @Override
                public void deposed() {
                    SrqActivation.this.deposed("another node was elected, or this one left");
                }
            });
        } catch (IllegalArgumentException e) {
            throw new jakarta.resource.spi.InvalidPropertyException(e.getMessage());
        }
        if (leaveRequested) { // FAILED or stopped while joining (WildFly elects on another thread)
            leaveElection();
            return false;
        }
        if (!candidacy.electedAtOnce()) {
            return false;
        }
        synchronized (lock) {
            if (state == ActivationState.STANDBY) {
                state = ActivationState.STARTING;
            }
        }
        return true;
    }

    /** Leaves the election (if a candidate): another node may be elected. Idempotent. */
    private void leaveElection() {
        leaveRequested = true;
        SingletonElection.Candidacy c = candidacy;
        candidacy = null;
        if (c != null) {
            c.close();
        }
    }

    /** This node was elected: STANDBY → STARTING, and the run opened (or retried as at activation). */
    private void elected() {
        synchronized (lock) {
            if (state != ActivationState.STANDBY || quiesced) {
                return;
            }
            state = ActivationState.STARTING;
        }
        RaLogger.LOG.singletonElected(name, singletonName());
        fire(ActivationState.STANDBY, ActivationState.STARTING, null, "elected by the cluster's singleton policy");
        try {
            openRun();
        } catch (ResourceException e) {
            if (OpenFailure.isTransient(e)) {
                try {
                    deferred(e);
                    return;
                } catch (ResourceException notScheduled) {
                    e = notScheduled;
                }
            }
            failedAsPrimary(e);
        }
    }

    /** Opening as the primary failed for good: FAILED, and out of the election so another node takes over. */
    private void failedAsPrimary(ResourceException e) {
        ActivationState from;
        synchronized (lock) {
            from = state;
            if (from == ActivationState.STOPPED || from == ActivationState.STANDBY) {
                return;
            }
            state = ActivationState.FAILED;
        }
        RaLogger.LOG.activationFailed(name, e.getMessage());
        fire(from, ActivationState.FAILED, OpenFailure.errno(e) == null ? null : OpenFailure.errno(e).name(), e.getMessage());
        // on the election's thread, inside the singleton service's start: leave from another one
        Thread.ofPlatform().name("srq-singleton-leave-" + name).daemon().start(this::leaveElection);
    }

    /**
     * This node is no longer the primary: the run (or a Recovery Work opening one) is stopped as
     * deactivation stops it, and the activation is STANDBY until elected again.
     */
    private void deposed(String why) {
        ActivationState from;
        ActivationRun r;
        Recovery rec;
        synchronized (lock) {
            from = state;
            if (from == ActivationState.STOPPED || from == ActivationState.STANDBY) {
                return;
            }
            state = ActivationState.STANDBY;
            generation++; // the old run's late faults are ignored
            r = run;
            run = null;
            rec = recovery;
            recovery = null;
            portsDown = false;
        }
        if (rec != null) {
            rec.release();
            rec.awaitEnd(System.nanoTime() + DELIVERY_BOUND.toNanos()); // an attempt in flight stops its own run
        }
        if (r != null) {
            r.stop(DELIVERY_BOUND, false);
            totals.ended(r);
        }
        RaLogger.LOG.singletonDeposed(name, singletonName(), why);
        fire(from, ActivationState.STANDBY, null, why);
    }

    /** {@return the properties that say where the activation opens: device, listenAddress, connectTo} */
    private String placeProperties() {
        return "device=" + (config.device().device().isEmpty() ? "(empty)" : config.device().device()) + ", listenAddress="
                + (config.listenAddress() == null ? "(listen=false)" : config.listenAddress().getAddress().getHostAddress())
                + (config.connectTo() == null ? "" : ", connectTo=" + config.connectTo())
                + (config.connectService() == null ? "" : ", connectTo=service:" + config.connectService());
    }

    /** The first attempt failed with a failure that may go away: STARTING, the Recovery Work retries. */
    private void deferred(ResourceException e) throws ResourceException {
        RaLogger.LOG.openDeferred(name, ActivationState.STARTING, e.getMessage(), backoff.delay(1).toMillis(),
                backoff.maxDelay().toMillis(), placeProperties());
        synchronized (lock) {
            recoveringSince = System.nanoTime();
            recoveringFrom = ActivationState.STARTING;
        }
        if (!schedule(false)) {
            throw new ResourceException("activation of " + factory.getEndpointClass().getName()
                    + ": the device is not there yet and the Work that would open it later cannot be scheduled: "
                    + e.getMessage(), e);
        }
    }

    /** Opens a run and makes it current (ACTIVE), unless the activation stopped meanwhile. */
    private void openRun() throws ResourceException {
        int gen;
        synchronized (lock) {
            gen = ++generation;
            pendingFault = null;
        }
        ActivationRun r = ActivationRun.start(wm, sink, tsr, factory, config, fault -> lost(gen, fault),
                new ControlLoop.Ports() {
                    @Override
                    public void down(Fault fault) {
                        portsDown(gen, fault);
                    }

                    @Override
                    public void up(int port) {
                        portsUp(gen, port);
                    }
                });
        ActivationState from;
        Fault pending;
        synchronized (lock) {
            pending = pendingFault;
            pendingFault = null;
            if (state == ActivationState.STOPPED || state == ActivationState.STANDBY || quiesced) {
                from = null;
            } else {
                from = state;
                run = r;
                device = r.deviceName();
                lastProvider = r.providerName();
                if (from == ActivationState.RECOVERING && recoveringFrom == ActivationState.ACTIVE) {
                    recoveries.incrementAndGet(); // counted before ACTIVE is seen
                }
                state = ActivationState.ACTIVE;
            }
        }
        if (from == null) {
            r.stop(Duration.ofSeconds(5), false);
            return;
        }
        if (held) {
            r.pauseDelivery();
        }
        if (from != ActivationState.ACTIVE) {
            fire(from, ActivationState.ACTIVE, null, "opened on " + r.deviceName() + ", listening at " + r.listenAddress());
        }
        if (pending != null) {
            lost(gen, pending); // the device went while the run was being opened
        }
    }

    /**
     * The run of generation {@code gen} lost its device (on its control loop's or connector's thread),
     * or one of its loops died (on that loop's thread, counted): either way it is ended and a new one
     * opened.
     */
    private void lost(int gen, Fault fault) {
        if (!fault.deviceGone()) {
            loopFailures.incrementAndGet();
        }
        boolean duringOutage;
        synchronized (lock) {
            if (gen != generation) {
                return; // an older run
            }
            duringOutage = state == ActivationState.RECOVERING && portsDown;
            if (state != ActivationState.ACTIVE && !duringOutage) {
                if (state == ActivationState.STARTING || state == ActivationState.RECOVERING) {
                    pendingFault = fault; // this run is still being opened: openRun hands it on
                }
                return;
            }
            portsDown = false;
            state = ActivationState.RECOVERING;
            if (!duringOutage) {
                recoveringSince = System.nanoTime();
            }
            recoveringFrom = ActivationState.ACTIVE;
            deviceGone = fault.deviceGone();
        }
        if (fault.deviceGone()) {
            RaLogger.LOG.deviceLost(name, device, fault.what(), fault.errnoName(), 0, backoff.maxDelay().toMillis());
        } else {
            RaLogger.LOG.loopDied(name, fault.what(), backoff.maxDelay().toMillis());
        }
        if (!duringOutage) {
            fire(ActivationState.ACTIVE, ActivationState.RECOVERING, fault.errnoName(), fault.what());
        }
        if (!schedule(true)) {
            synchronized (lock) {
                if (state == ActivationState.RECOVERING) {
                    state = ActivationState.FAILED;
                }
            }
            fire(ActivationState.RECOVERING, ActivationState.FAILED, fault.errnoName(), "recovery Work refused");
            leaveElection();
        }
    }

    /** The run of generation {@code gen} has no ACTIVE port any more: RECOVERING, the run kept. */
    private void portsDown(int gen, Fault fault) {
        synchronized (lock) {
            if (gen != generation || state != ActivationState.ACTIVE) {
                return; // an older run, or not serving yet (opening needs an ACTIVE port), or stopped
            }
            portsDown = true;
            state = ActivationState.RECOVERING;
            recoveringSince = System.nanoTime();
            recoveringFrom = ActivationState.ACTIVE;
        }
        RaLogger.LOG.portsDown(name, device, fault.what());
        fire(ActivationState.ACTIVE, ActivationState.RECOVERING, fault.errnoName(), fault.what());
    }

    /** A port of the run of generation {@code gen} is ACTIVE again: ACTIVE, counted as a recovery. */
    private void portsUp(int gen, int port) {
        long since;
        synchronized (lock) {
            if (gen != generation || state != ActivationState.RECOVERING || !portsDown) {
                return;
            }
            portsDown = false;
            recoveries.incrementAndGet(); // counted before ACTIVE is seen
            state = ActivationState.ACTIVE;
            since = recoveringSince;
        }
        RaLogger.LOG.portsUp(name, port, device, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since));
        fire(ActivationState.RECOVERING, ActivationState.ACTIVE, null, "port " + port + " of " + device + " is ACTIVE");
    }

    /** @return whether the Recovery Work was scheduled (or the activation stopped, so none is needed) */
    private boolean schedule(boolean firstAtOnce) {
        Recovery r = new Recovery("srq-recovery-" + name, backoff, new Steps(), firstAtOnce);
        synchronized (lock) {
            if (state == ActivationState.STOPPED || state == ActivationState.STANDBY) {
                return true;
            }
            recovery = r;
        }
        try {
            wm.scheduleWork(r, WorkManager.INDEFINITE, null, null);
            return true;
        } catch (WorkException | RuntimeException e) {
            r.notStarted();
            RaLogger.LOG.recoveryWorkRejected(e, name);
            return false;
        }
    }

    /** What the Recovery Work does for this activation. */
    private final class Steps implements Recovery.Steps {
        @Override
        public void endLostRun() {
            ActivationRun lostRun;
            boolean withDevice;
            synchronized (lock) {
                lostRun = run;
                run = null;
                withDevice = deviceGone;
            }
            if (lostRun != null) {
                lostRun.stop(DELIVERY_BOUND, withDevice);
                totals.ended(lostRun);
                DevicePresence.releaseRemoved(lostRun.providerName());
            }
        }

        @Override
        public void open(int attempt) throws ResourceException {
            ActivationState from;
            long since;
            synchronized (lock) {
                from = recoveringFrom;
                since = recoveringSince;
            }
            openRun();
            synchronized (lock) {
                if (state != ActivationState.ACTIVE) {
                    return;
                }
            }
            RaLogger.LOG.activationRecovered(name, device, attempt,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since), from == ActivationState.ACTIVE
                            ? ActivationState.RECOVERING : ActivationState.STARTING);
        }

        @Override
        public boolean failed(int attempt, ResourceException failure, Duration next) {
            failedOpens.incrementAndGet();
            ActivationState now;
            synchronized (lock) {
                now = state;
                if (now == ActivationState.STOPPED || now == ActivationState.STANDBY) {
                    return false;
                }
                if (!OpenFailure.isTransient(failure)) {
                    state = ActivationState.FAILED;
                }
            }
            if (!OpenFailure.isTransient(failure)) {
                RaLogger.LOG.activationFailed(name, failure.getMessage());
                fire(now, ActivationState.FAILED, OpenFailure.errno(failure) == null ? null
                        : OpenFailure.errno(failure).name(), failure.getMessage());
                leaveElection();
                return false;
            }
            String provider = lastProvider;
            if (provider != null && OpenFailure.errno(failure) == io.rdma.srq.api.Errno.ENODEV) {
                DevicePresence.releaseRemoved(provider); // the lost run's last delivery may have freed it only now
            }
            if (attempt == 1 || Long.bitCount(attempt) == 1) { // the 1st, 2nd, 4th, 8th … failure: not a line per retry
                RaLogger.LOG.openDeferred(name, now, failure.getMessage(), next.toMillis(), backoff.maxDelay().toMillis(),
                        placeProperties());
            }
            return true;
        }
    }

    /** How long a lost run's deactivation waits for deliveries still running after its drain. */
    static final Duration DELIVERY_BOUND = Duration.ofSeconds(10);

    private void fire(ActivationState from, ActivationState to, String errno, String cause) {
        events.fire(new SrqDeviceStateChanged(name, device, from, to, errno, cause, Instant.now()));
    }

    /** @return the endpoint factory this activation serves */
    public MessageEndpointFactory factory() {
        return factory;
    }

    /** @return the activation's name (srqName, else the MDB class's simple name) */
    public String name() {
        return name;
    }

    /** @return where the listener is bound; null while no run is open (STARTING, RECOVERING, FAILED) */
    public InetSocketAddress listenAddress() {
        ActivationRun r = current();
        return r == null ? null : r.listenAddress();
    }

    /** @return the device: the open run's, else the configured one (the device name, or the provider when none is named) */
    public String deviceName() {
        synchronized (lock) {
            return device;
        }
    }

    /** @return the state now */
    public ActivationState state() {
        synchronized (lock) {
            return state;
        }
    }

    /**
     * Waits until the activation is in {@code expected}.
     *
     * @param expected the state
     * @param timeout  the longest wait
     * @return whether it got there in time
     */
    public boolean awaitState(ActivationState expected, Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        while (state() != expected) {
            if (System.nanoTime() - end >= 0) {
                return false;
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** @return times the activation came back ACTIVE after losing its device, or a loop of its run */
    public long recoveries() {
        return recoveries.get();
    }

    /**
     * @return attempts to open a run that failed (the device or port absent: ENODEV, ENETDOWN, …; or a
     *         failure that made the activation FAILED), counted before the next attempt is scheduled
     */
    public long failedOpens() {
        return failedOpens.get();
    }

    /**
     * @return times one of the activation's loops (poller, control loop, connector) ended on a
     *         failure — an exception, or an Error such as OutOfMemoryError — while it should have gone
     *         on; each made the activation RECOVERING and open its run again (SRQRA0408)
     */
    public long loopFailures() {
        return loopFailures.get();
    }

    /**
     * @return messages acknowledged to their senders and lost with a device: completions its CQ still
     *         held (or batches not begun) when the lost run's drain ended (drainTimeout)
     */
    public long lostAtDeviceLoss() {
        return totals.lostAtDeviceLoss();
    }

    private ActivationRun current() {
        synchronized (lock) {
            return run;
        }
    }

    /**
     * Stops arrivals and delivers what the CQ holds within drainTimeout, as the first steps of
     * {@link #stop} (see {@link ActivationRun#quiesce}); once this returns nothing more is delivered
     * and no recovery opens the device again. A server suspend calls it for every activation at once,
     * before the container deactivates them one after another. Idempotent.
     */
    public void quiesce() {
        quiesce(null);
    }

    /** @param drainTimeout the drain's own timeout, null for the activation's drainTimeout */
    private void quiesce(Duration drainTimeout) {
        ActivationRun r;
        synchronized (lock) {
            quiesced = true;
            r = run;
        }
        if (r != null && drainTimeout == null) {
            r.quiesce();
        } else if (r != null) {
            r.quiesce(drainTimeout);
        }
        leaveElection(); // drained: another node may deliver now
    }

    @Override
    public Drained drain(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("drain timeout must be > 0, got " + timeout);
        }
        ActivationStatistics before = statistics();
        quiesce(timeout);
        ActivationStatistics after = statistics();
        Drained d = new Drained(after.delivered() - before.delivered(), after.undelivered() - before.undelivered());
        ActivationState from;
        synchronized (lock) {
            from = state;
            if (from != ActivationState.STOPPED) {
                state = ActivationState.DRAINED; // what readiness and the statistics show from now on
            }
        }
        if (from != ActivationState.STOPPED && from != ActivationState.DRAINED) {
            RaLogger.LOG.drainedByManagement(name, timeout.toMillis(), d.delivered(), d.undelivered());
            fire(from, ActivationState.DRAINED, null, "drained by management");
        }
        return d;
    }

    /** @throws IllegalStateException once the activation accepts and delivers nothing more */
    private void requireNotQuiesced(String what) {
        if (quiesced) {
            throw new IllegalStateException("activation " + name + " is " + state() + ": it accepts and delivers nothing more"
                    + " (drained, or quiesced by a server suspend), so there is no delivery to " + what
                    + "; activate the endpoint again (stop-delivery and start-delivery, or a redeploy)");
        }
    }

    @Override
    public void pauseDelivery() {
        requireNotQuiesced("pause");
        held = true;
        ActivationRun r = current();
        if (r != null) {
            r.pauseDelivery();
        }
    }

    @Override
    public Class<?> endpointClass() {
        return factory.getEndpointClass();
    }


    /** @return whether {@link #quiesce} has begun: this activation accepts and delivers nothing more */
    public boolean quiesced() {
        return quiesced;
    }

    /**
     * Deactivates: a Recovery Work waiting in its backoff ends at once, the current run (if any) is
     * stopped as {@link ActivationRun#stop} describes, and the state is STOPPED. Idempotent.
     *
     * @param bound the longest the deactivation waits for running deliveries after the drain
     */
    public void stop(Duration bound) {
        ActivationState from;
        ActivationRun r;
        Recovery rec;
        synchronized (lock) {
            from = state;
            if (from == ActivationState.STOPPED) {
                return;
            }
            state = ActivationState.STOPPED;
            r = run;
            rec = recovery;
        }
        if (rec != null) {
            rec.release();
            rec.awaitEnd(System.nanoTime() + bound.toNanos()); // mid-attempt: that attempt's run is stopped by openRun
        }
        if (r != null) {
            r.stop(bound, false);
            totals.ended(r);
        }
        leaveElection(); // after the run stopped: never two nodes delivering
        fire(from, ActivationState.STOPPED, null, "deactivated");
    }

    /** @return whether the native objects of the last run are freed (deactivation done, no delivery left); true without a run */
    public boolean freed() {
        ActivationRun r = current();
        return r == null || r.freed();
    }

    /**
     * @return the device now: provider, device, the state of every port and healthy while ACTIVE
     *         and a port is ACTIVE; {@code unavailable} with the state while no run is open
     */
    public DeviceState deviceState() {
        ActivationRun r = current();
        ActivationState s = state();
        return r == null || s != ActivationState.ACTIVE
                ? DeviceState.unavailable(config.device().provider().verbsName(), deviceName(), s.name())
                : r.deviceState();
    }

    /**
     * Ends a pause — after maxSequentialDeliveryFailures consecutive failures, or by
     * {@link #pauseDelivery()}; nothing when delivery is not paused or no run is open. In WildFly the
     * {@code rdma-srq} subsystem's {@code resume} operation calls it.
     *
     * @throws IllegalStateException once drained or quiesced (there is no delivery to resume)
     */
    @Override
    public void resumeDelivery() {
        requireNotQuiesced("resume");
        held = false;
        ActivationRun r = current();
        if (r != null) {
            r.resumeDelivery();
        }
    }

    /** @return the counters over every run of this activation, the gauges of the current run (0 without one) */
    public ActivationStatistics statistics() {
        return totals.statistics(name, deviceName(), current());
    }
}
