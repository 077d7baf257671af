package io.rdma.srq.ra.inbound.lifecycle;

import io.rdma.srq.ra.inbound.config.InboundConfig;
import io.rdma.srq.ra.inbound.connections.Connector;
import io.rdma.srq.ra.inbound.connections.ControlLoop;
import io.rdma.srq.ra.inbound.connections.CqSweep;
import io.rdma.srq.ra.inbound.connections.Links;
import io.rdma.srq.ra.cluster.ServiceDirectory;
import io.rdma.srq.ra.cluster.ServiceEndpoint;
import io.rdma.srq.ra.inbound.connections.Listening;
import io.rdma.srq.ra.inbound.connections.Targets;
import io.rdma.srq.ra.inbound.delivery.DeliveryRules;
import io.rdma.srq.ra.inbound.delivery.Poller;
import io.rdma.srq.ra.inbound.delivery.ReceiveBuffers;
import io.rdma.srq.ra.inbound.events.EventSink;
import io.rdma.srq.ra.inbound.events.Fault;
import io.rdma.srq.ra.inbound.events.ObserverDispatch;
import io.rdma.srq.ra.support.LongRunningWork;

import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.SrqBatchListener;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.support.FabricProperties;
import io.rdma.srq.ra.support.PinningBudget;
import io.rdma.srq.ra.support.RaLogger;
import io.rdma.srq.verbs.MemlockLimit;
import io.rdma.srq.ra.management.DeviceState;
import io.rdma.srq.ra.support.Teardown;
import io.rdma.srq.ra.support.admission.Admission;
import io.rdma.srq.ra.support.admission.AuthKey;
import io.rdma.srq.verbs.CompletionChannel;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.SharedReceiveQueue;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkManager;
import jakarta.transaction.TransactionSynchronizationRegistry;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One run of a message-endpoint activation on one opening of its device ({@link SrqActivation} keeps
 * the activation's state across runs and makes a new run after a device loss): it opens the device
 * and, in order, checks that a port is ACTIVE, a PD, the
 * completion channel (pollMode event or adaptive), a CQ of cqSize entries, an SRQ of srqMaxWr, the
 * registered receive slab and an rdma_cm listener — a failure closes the device context, which frees
 * what was made children-first — then starts its parts as long-running Works:
 * <ul>
 *   <li>{@link Poller}: polls the CQ, hands batches to endpoints, reposts the
 *       {@link ReceiveBuffers};</li>
 *   <li>{@link ControlLoop}: accepts and closes connections ({@link Links}), handles SRQ-limit and
 *       device events;</li>
 *   <li>{@link Connector}, with {@code connectTo}: keeps connections to a remote listener on the
 *       same SRQ.</li>
 * </ul>
 * {@link #stop} deactivates within a bound and frees the natives only when the last delivery batch
 * has returned.
 */
final class ActivationRun {
    /** How long deactivation waits for the control loop and the connector (its connect timeout is 2 s). */
    private static final Duration LOOP_BOUND = Duration.ofMillis(2_500);
    /** Beyond the drain timeout: the poller's last sweep of the CQ and its current wait. */
    private static final Duration DRAIN_MARGIN = Duration.ofSeconds(1);

    private final String name;
    private final String device;
    private final String provider;
    private final MessageEndpointFactory factory;
    private final Context context;
    private final Links links;
    private final ReceiveBuffers buffers;
    private final Poller poller;
    private final Listening listener;
    private final InetSocketAddress listenAddress;
    private final ControlLoop control;
    private final Admission admission;
    /** Null without connectTo. */
    private final Connector connector;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final Object quiesceLock = new Object();
    /** Guarded by quiesceLock. */
    private boolean quiesced;
    private final Duration drainTimeout;
    private final ServiceDirectory directory;
    private volatile boolean freed;
    /** Whether the run ends because its device was lost: what is left undelivered is then lost with it. */
    private volatile boolean deviceLost;

    private ActivationRun(WorkManager wm, EventSink sink, TransactionSynchronizationRegistry tsr,
                          MessageEndpointFactory factory, InboundConfig config, Context context,
                          Consumer<Fault> lost, ControlLoop.Ports ports) throws VerbsException {
        this.factory = factory;
        this.context = context;
        this.drainTimeout = config.drainTimeout();
        this.directory = config.directory();
        this.device = context.deviceName();
        this.provider = context.providerName();
        this.name = config.srqName().isEmpty() ? factory.getEndpointClass().getSimpleName() : config.srqName();
        ProtectionDomain pd = context.allocPd();
        CompletionChannel channel = config.pollMode() == InboundConfig.PollMode.BUSY ? null
                : context.createCompletionChannel();
        CompletionQueue cq = context.createCq(config.cqSize(), channel);
        // created with limit 0; the first top-up arms it after posting (driver note 4)
        SharedReceiveQueue srq = pd.createSrq(new SrqAttributes(config.srq().maxWr(), config.srq().maxSge(), 0));
        this.buffers = new ReceiveBuffers(pd, srq, config);
        CqSweep sweep = new CqSweep();
        this.links = new Links(name, pd, cq, srq, config.replyBufferSize(), config.replyTimeout(), config.fabric(),
                sweep);
        this.poller = new Poller(name, config, cq, channel, buffers, links, factory, wm,
                new DeliveryRules(name, config.maxDeliveryAttempts(), tsr, sink, factory.getEndpointClass().getClassLoader(),
                        SrqBatchListener.class.isAssignableFrom(factory.getEndpointClass()), config.maxBatchSize(),
                        this::endpointStopping),
                sweep);
        try (ReceiveWorkRequests wrs = new ReceiveWorkRequests(Poller.BATCH)) {
            buffers.topUp(wrs);
        }
        this.listener = Listening.open(name, context, config);
        try {
            this.listenAddress = listener.localAddress();
            this.admission = admission(name, config.admission(), listenAddress);
            this.control = new ControlLoop(name, listener, context, srq, buffers, links, admission,
                    new ObserverDispatch(name, wm, sink, factory.getEndpointClass().getClassLoader()), lost, ports);
            Targets targets = config.connectService() != null
                    ? Targets.ofService(config.connectService(), config.directory(), context.providerName(),
                            config.directory().localNode())
                    : config.connectTo() != null ? Targets.of(config.connectTo()) : null;
            this.connector = targets == null ? null : new Connector(name, targets,
                    config.connectCount(), config.reconnectInterval(), links, config.admission().keys(), lost);
        } catch (RuntimeException e) {
            throw Teardown.rollback(e, listener); // the listen address is free again
        }
        for (LongRunningWork loop : loops()) {
            loop.whenFailed(failure -> lost.accept(Fault.loopFailed(loop.toString(), failure)));
        }
        RaLogger.LOG.activationStarted(name, device, listener.describe(), connector == null ? ""
                        : ", keeping " + config.connectCount() + " connection(s) to " + (config.connectService() != null
                        ? "service " + config.connectService() : config.connectTo()),
                srq.maxWr(), config.srq().maxWr(), config.bufferSize(), buffers.fill(), config.srq().srqLimit());
        FabricProperties.log("activation " + name, config.fabric());
    }

    /** The activation's admission, logged; a WARN when any host that reaches a non-loopback listener may connect. */
    private static Admission admission(String name, Admission.Policy policy, InetSocketAddress listenAddress) {
        RaLogger.LOG.admissionPolicy(name, policy.peers().restricts() ? policy.peers().allowed() : "any",
                policy.maxConnections(), policy.maxConnectionsPerPeer(), policy.connectRateLimit(),
                policy.keys().isEmpty() ? "none" : policy.keys().stream().map(AuthKey::alias).toList());
        if (listenAddress != null && policy.open() && Admission.reachableFromOtherHosts(listenAddress.getAddress())) {
            RaLogger.LOG.openListener(name, listenAddress);
        }
        return new Admission(name, policy, System::nanoTime, System::currentTimeMillis);
    }

    /**
     * Opens the device and every native object, then starts the poller, the control loop and the
     * connector.
     *
     * @param wm      the container's work manager
     * @param sink    where limit events and dead letters go
     * @param tsr     the container's transaction synchronization registry, to learn that a delivery's
     *                transaction rolled back; null without one
     * @param factory the endpoint factory
     * @param config  the checked configuration
     * @param lost    told (on the control loop's or the connector's thread, possibly more than once)
     *                when the device is lost: IBV_EVENT_DEVICE_FATAL, RDMA_CM_EVENT_DEVICE_REMOVAL on
     *                any of the run's rdma_cm ids, the device no longer listed; and (on the loop's
     *                thread, once it has ended) when one of the run's loops dies
     *                ({@link Fault#loopFailed})
     * @param ports   told (on the control loop's thread) when no port is ACTIVE any more
     *                (IBV_EVENT_PORT_ERR) and when one is again (IBV_EVENT_PORT_ACTIVE): the run stays
     * @return the running run
     * @throws ResourceException naming the bad property (a device limit), or the verbs error with its
     *                           errno as the cause (ENODEV: no such device; ENETDOWN: no port ACTIVE;
     *                           EADDRNOTAVAIL: the listen address is not the device's); nothing is left open
     */
    static ActivationRun start(WorkManager wm, EventSink sink, TransactionSynchronizationRegistry tsr,
                               MessageEndpointFactory factory, InboundConfig config, Consumer<Fault> lost,
                               ControlLoop.Ports ports) throws ResourceException {
        ActivationRun a = open(wm, sink, tsr, factory, config, lost, ports);
        a.startWorks(wm);
        return a;
    }

    private static ActivationRun open(WorkManager wm, EventSink sink, TransactionSynchronizationRegistry tsr,
                                      MessageEndpointFactory factory, InboundConfig config, Consumer<Fault> lost,
                                      ControlLoop.Ports ports) throws ResourceException {
        Context context;
        try {
            context = config.device().open("activation of " + factory.getEndpointClass().getName());
        } catch (VerbsException e) {
            throw new ResourceException("cannot open the RDMA device for the activation of "
                    + factory.getEndpointClass().getName() + ": " + e.getMessage(), e);
        }
        try {
            config.checkAgainst(context.queryDevice());
            new PinningBudget(MemlockLimit.ofThisProcess()).check("the activation of "
                    + factory.getEndpointClass().getName() + " (receive slab srqMaxWr × bufferSize)",
                    context.providerName(), (long) config.srq().maxWr() * config.bufferSize());
            requireActivePort(context);
            return new ActivationRun(wm, sink, tsr, factory, config, context, lost, ports);
        } catch (ResourceException e) {
            throw Teardown.rollback(e, context);
        } catch (RuntimeException | OutOfMemoryError e) {
            String what = e instanceof OutOfMemoryError
                    ? "cannot allocate the receive slab of srqMaxWr × bufferSize = " + config.srq().maxWr() + " × "
                            + config.bufferSize() + " bytes (" + e.getMessage() + ")"
                    : e.getMessage();
            throw Teardown.rollback(new ResourceException("activation of " + factory.getEndpointClass().getName()
                    + " on " + context.deviceName() + ": " + what, e), context);
        }
    }

    /**
     * @throws VerbsException ENETDOWN when no port of the device is ACTIVE (ibv_query_port(3) state):
     *                        the link is down, nothing could connect
     */
    private static void requireActivePort(Context context) throws VerbsException {
        int ports = context.queryDevice().physPortCnt();
        for (int p = 1; p <= ports; p++) {
            if (context.queryPort(p).isActive()) {
                return;
            }
        }
        throw new VerbsException("ibv_query_port", Errno.ENETDOWN, "no port of " + context.deviceName()
                + " is ACTIVE (link down)");
    }

    /** {@return the run's loops: the poller, the control loop and the connector (with connectTo)} */
    private List<LongRunningWork> loops() {
        List<LongRunningWork> works = new ArrayList<>(List.of(poller, control));
        if (connector != null) {
            works.add(connector);
        }
        return works;
    }

    /** Schedules the loops; when one cannot be, the others are stopped and the natives freed. */
    private void startWorks(WorkManager wm) throws ResourceException {
        List<LongRunningWork> works = loops();
        for (int i = 0; i < works.size(); i++) {
            try {
                wm.scheduleWork(works.get(i), WorkManager.INDEFINITE, null, null);
            } catch (WorkException e) {
                works.subList(i, works.size()).forEach(LongRunningWork::notStarted);
                stop(Duration.ofSeconds(5), false);
                throw new ResourceException("cannot start " + works.get(i) + ": " + e.getMessage(), e);
            }
        }
    }

    /** @return the endpoint factory this activation serves */
    MessageEndpointFactory factory() {
        return factory;
    }

    /** @return where the listener is bound, or null with listen=false */
    InetSocketAddress listenAddress() {
        return listenAddress;
    }

    /** @return the device */
    String deviceName() {
        return device;
    }

    /** {@return providers of the service this run's listener publishes, as its directory lists them; 0 when not published} */
    private int serviceProviders() {
        ServiceEndpoint e = listener.publishedEndpoint();
        return e == null ? 0 : directory.providers(e.service()).size();
    }

    /**
     * The endpoint refused a delivery before it ran (the MDB is stopping: WildFly refuses invocations
     * before it deactivates the endpoint): the service is withdrawn now, without the grace — nothing
     * would be served in it.
     */
    private void endpointStopping() {
        Listening l = listener;
        if (l != null) {
            l.withdraw(false);
        }
    }

    /**
     * Steps 1–3 of {@link #stop}: stops accepting and connecting, moves every connection's QP to
     * ERROR (nothing more is acknowledged to a sender) and delivers what the CQ holds within
     * drainTimeout, the rest counted undelivered. Once this returns nothing more is delivered; the
     * listener, the connections and the natives stay until {@link #stop}. Runs once: a second caller
     * waits until the first has finished. A server suspend calls it for every activation at once
     * ({@code io.rdma.srq.ra.ServerSuspendDrain}), so that the container's deactivations, which
     * WildFly runs one after another, find their drain done.
     */
    void quiesce() {
        quiesce(drainTimeout);
    }

    /**
     * {@link #quiesce()} with a drain timeout of its own (management's {@code drain} operation).
     *
     * @param drainTimeout how long what the CQ holds may take to be delivered
     */
    void quiesce(Duration drainTimeout) {
        synchronized (quiesceLock) {
            if (quiesced) {
                return;
            }
            quiesced = true;
            listener.withdraw(!deviceLost); // callers by name move on first; nothing waits for a lost device
            long loops = System.nanoTime() + LOOP_BOUND.toNanos();
            control.release();
            if (connector != null) {
                connector.release();
                connector.awaitEnd(loops);
            }
            control.awaitEnd(loops);
            int failed = links.stopArrivals();
            if (failed > 0) {
                RaLogger.LOG.stopArrivalsFailed(name, failed);
            }
            poller.drain(drainTimeout);
            long drained = System.nanoTime() + drainTimeout.toNanos() + DRAIN_MARGIN.toNanos();
            if (!poller.awaitDrained(drained)) {
                poller.release();
                poller.awaitEnd(drained + DRAIN_MARGIN.toNanos());
            }
        }
    }

    /**
     * Deactivation without silent loss, in this order:
     * <ol>
     *   <li>stops accepting and connecting (the control loop and the connector end);</li>
     *   <li>stops new arrivals: every connection's QP goes to ERROR, so no further message is
     *       acknowledged to a sender — their later sends end in IBV_WC_RETRY_EXC_ERR — while what the
     *       CQ already holds stays (driver note 18; nothing waits for IBV_EVENT_QP_LAST_WQE_REACHED,
     *       driver note 8);</li>
     *   <li>delivers what the CQ holds, reposting nothing, until the CQ stays empty or the drain
     *       timeout (activation property drainTimeout) passes; then counts whatever is left —
     *       in the CQ or in batches not yet begun — as {@code undelivered}, logs it at WARN
     *       (SRQRA0300) and reports it in the statistics;</li>
     *   <li>destroys the connections (only now: mlx5 drops a destroyed QP's completions) and the
     *       listener, waits up to {@code bound} for deliveries still running, releases the
     *       endpoints and frees every native object.</li>
     * </ol>
     * A message acknowledged to its sender is so either delivered or counted undelivered, never
     * dropped unseen. An endpoint still inside onReceive at the bound keeps its message buffer (and
     * so the device context) alive: the endpoints are released and the natives freed when that
     * last delivery returns, never under it. Idempotent.
     *
     * <p>After a device loss ({@code deviceLost}) the same steps run on what the device still
     * gives: completions the CQ yields are delivered; what is left is counted
     * {@link #lostAtDeviceLoss()} instead of undelivered and logged at WARN (SRQRA0401).
     *
     * @param bound      the longest the deactivation waits for running deliveries after the drain
     * @param deviceLost whether the run ends because its device was lost
     */
    void stop(Duration bound, boolean deviceLost) {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        this.deviceLost = deviceLost;
        quiesce();
        Teardown.quietly(listener); // disconnects and destroys every accepted connection id
        links.closeAll();
        long deadline = System.nanoTime() + bound.toNanos();
        if (!poller.awaitDeliveries(deadline) || !poller.hasEnded()) {
            RaLogger.LOG.deliveriesOutliveDeactivation(name, bound.toMillis());
        }
        poller.whenIdle(this::free);
    }

    /** Runs once, when deactivation has asked for it and neither the poller nor a batch is running. */
    private void free() {
        poller.releaseEndpoints();
        Teardown.quietly(context);
        freed = true;
        long undelivered = poller.figures().undelivered();
        if (undelivered > 0 && deviceLost) {
            RaLogger.LOG.lostAtDeviceLoss(name, undelivered, device, drainTimeout.toMillis());
        } else if (undelivered > 0) {
            RaLogger.LOG.undeliveredAtDeactivation(name, undelivered, drainTimeout.toMillis());
        }
        RaLogger.LOG.activationStopped(name, statistics());
    }

    /** @return whether the native objects are freed (deactivation done and no delivery left) */
    boolean freed() {
        return freed;
    }

    /**
     * @return messages acknowledged to their senders that this run could not deliver because its
     *         device was lost (left in the CQ or in batches not begun when the drain ended); 0 for a
     *         run that was deactivated (those are {@code undelivered})
     */
    long lostAtDeviceLoss() {
        return deviceLost ? poller.figures().undelivered() : 0;
    }

    /** @return the activation's name (srqName, else the MDB class's simple name) */
    String name() {
        return name;
    }

    /** @return the verbs provider of the run's device ({@code ibverbs}, {@code soft}) */
    String providerName() {
        return provider;
    }

    /**
     * @return the device now: provider, device, the state of every port (the listener may accept on
     *         any) and healthy while the activation runs and a port is ACTIVE
     */
    DeviceState deviceState() {
        return DeviceState.of(context, 0, !stopped.get());
    }

    /**
     * Ends a pause after maxSequentialDeliveryFailures consecutive failures (for management, e.g. a
     * jboss-cli operation); nothing when delivery is not paused.
     */
    void resumeDelivery() {
        poller.resume();
    }

    /** Pauses delivery until {@link #resumeDelivery()} (management); completions wait in the CQ. */
    void pauseDelivery() {
        poller.hold();
    }

    /** @return the counters now */
    ActivationStatistics statistics() {
        return ActivationStatistics.builder().srqName(name).device(device).posted(buffers.posted())
                .completed(poller.figures().completed()).delivered(poller.figures().delivered()).undelivered(poller.figures().undelivered())
                .endpointFailures(poller.figures().failures()).redelivered(poller.figures().redelivered())
                .deadLettered(poller.figures().deadLettered()).pauses(poller.pauses()).paused(poller.paused())
                .errorCompletions(poller.figures().errors()).limitEvents(control.limitEvents())
                .outstanding(buffers.outstanding()).fill(buffers.fill()).connections(links.size())
                .rejectedByReason(admission.rejectedByReason()).copiedOut(poller.copiedOut())
                .slowDisconnects(poller.slowDisconnects()).halfOpenReaped(control.halfOpenReaped())
                .rebalances(connector == null ? 0 : connector.rebalances()).serviceProviders(serviceProviders())
                .retained(poller.retainedBuffers())
                .leavingConnections(links.leaving()).closedConnections(links.closed())
                .closedOnLastWqe(links.closedOnLastWqe()).build();
    }
}
