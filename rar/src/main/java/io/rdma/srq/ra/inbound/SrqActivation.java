package io.rdma.srq.ra.inbound;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.api.AsyncEventType;
import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.SrqLimitReached;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.support.RcConnection;
import io.rdma.srq.ra.support.Teardown;
import io.rdma.srq.verbs.AsyncEvent;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.CompletionChannel;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.WorkCompletionArray;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkManager;
import org.jboss.logging.Logger;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.EnumSet;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * One message-endpoint activation: an SRQ, its CQ and completion channel, one registered slab of
 * {@code srqMaxWr} receive buffers (the registered receive memory is the same for 1 or 1000
 * connections), an rdma_cm listener that accepts every connection onto an RC QP on the SRQ and,
 * with {@code connectTo}, a {@link Connector} that keeps connections to a remote listener on the
 * same SRQ. Each connection is a {@link Link}, through which an endpoint can answer the message it
 * is given ({@link io.rdma.srq.api.ReceiveCompletion#reply}).
 *
 * <p>Two long-running works: the <b>poller</b> polls the CQ up to 32 completions at a time, hands
 * the successful receives of one poll to one endpoint as a {@link Delivery} batch on the
 * WorkManager (at most {@code maxConcurrency} batches at once: with no free endpoint it stops
 * polling, so completions wait in the CQ and nothing is dropped) and reposts returned buffers in
 * chains up to the fill level; the <b>control</b> loop takes rdma_cm events and async
 * events with short timeouts (so it never blocks deactivation). On IBV_EVENT_SRQ_LIMIT_REACHED it
 * raises the fill level (policy {@code grow}: doubles it up to srqMaxWr, MVAPICH2-style), has the
 * poller top up and re-arm the one-shot limit, and fires {@link SrqLimitReached}.
 */
public final class SrqActivation {
    private static final Logger LOG = Logger.getLogger(SrqActivation.class);
    private static final int BATCH = 32;
    private static final long EVENT_WAIT_MS = 50;
    private static final long ADAPTIVE_SPIN_NANOS = 50_000;

    private final MessageEndpointFactory factory;
    private final InboundConfig config;
    private final String srqName;
    private final LimitEventSink sink;
    private final Context context;
    private final ProtectionDomain pd;
    private final CompletionChannel channel;
    private final CompletionQueue cq;
    private final SharedReceiveQueue srq;
    private final MemoryRegion slab;
    private final CmListener listener;
    private final EndpointPool endpoints;
    private final Semaphore permits;
    /** Batches whose delivery ended: their buffers go back to the SRQ, the objects are reused. */
    private final ConcurrentLinkedQueue<Delivery> returned = new ConcurrentLinkedQueue<>();
    /** Batch objects ready for reuse, touched by the poller only. */
    private final ArrayDeque<Delivery> spare = new ArrayDeque<>();
    /** Buffers neither posted nor in delivery: a stack of indexes, touched by the poller only. */
    private final int[] free;
    private int freeCount;
    private final Links links;
    private final Connector connector;
    private final LongAdder posted = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder delivered = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder limitEvents = new LongAdder();
    private final CountDownLatch pollerDone = new CountDownLatch(1);
    private final CountDownLatch controlDone = new CountDownLatch(1);
    private WorkManager workManager;
    private boolean armed;
    private volatile long outstanding;
    private volatile int fill;
    private volatile boolean rearm;
    private volatile boolean controlRunning = true;
    private volatile boolean pollerRunning = true;
    private volatile boolean draining;
    /** Deactivation has asked for the native objects to be freed once no batch and no poller uses them. */
    private volatile boolean stopping;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final AtomicBoolean freed = new AtomicBoolean();
    /** Whether start() scheduled the poller and control loop (open() alone does not). */
    private volatile boolean worksStarted;

    private SrqActivation(MessageEndpointFactory factory, InboundConfig config, LimitEventSink sink, Context context)
            throws VerbsException {
        this.factory = factory;
        this.config = config;
        this.sink = sink;
        this.context = context;
        this.srqName = config.srqName().isEmpty() ? factory.getEndpointClass().getSimpleName() : config.srqName();
        this.pd = context.allocPd();
        this.channel = config.pollMode() == InboundConfig.PollMode.BUSY ? null : context.createCompletionChannel();
        this.cq = context.createCq(config.cqSize(), channel);
        // create with limit 0 and arm after the first receives are posted (driver note 4)
        this.srq = pd.createSrq(new SrqAttributes(config.srq().maxWr(), config.srq().maxSge(), 0));
        this.slab = pd.allocateRegistered((long) config.srq().maxWr() * config.bufferSize(), EnumSet.of(AccessFlag.LOCAL_WRITE));
        this.free = new int[config.srq().maxWr()];
        for (int i = 0; i < free.length; i++) {
            free[freeCount++] = i;
        }
        this.fill = config.initialFill();
        this.links = new Links(srqName, pd, cq, srq, config.replyBufferSize());
        this.endpoints = new EndpointPool(factory);
        this.permits = new Semaphore(config.maxConcurrency());
        try (ReceiveWorkRequests wrs = new ReceiveWorkRequests(BATCH)) {
            topUp(wrs);
        }
        if (config.srq().srqLimit() > 0) {
            srq.armLimit(config.srq().srqLimit());
        }
        this.listener = context.listen(config.listenAddress(), 128);
        this.connector = config.connectTo() == null ? null : new Connector(srqName, config.connectTo(),
                config.connectCount(), config.reconnectInterval(), links);
    }

    /**
     * Opens the device and every native object, then starts the poller and the control loop.
     *
     * @param wm      the container's work manager
     * @param sink    where limit events go
     * @param factory the endpoint factory
     * @param config  the checked configuration
     * @return the running activation
     * @throws ResourceException naming the bad property, or the verbs error with its errno
     */
    public static SrqActivation start(WorkManager wm, LimitEventSink sink, MessageEndpointFactory factory,
                                      InboundConfig config) throws ResourceException {
        SrqActivation a = open(wm, sink, factory, config);
        a.worksStarted = true;
        try {
            wm.scheduleWork(new LongRunningWork("srq-poller-" + a.srqName, a::pollLoop, () -> a.pollerRunning = false),
                    WorkManager.INDEFINITE, null, null);
            wm.scheduleWork(new LongRunningWork("srq-control-" + a.srqName, a::controlLoop, () -> a.controlRunning = false),
                    WorkManager.INDEFINITE, null, null);
            if (a.connector != null) {
                wm.scheduleWork(new LongRunningWork("srq-connector-" + a.srqName, a.connector::run, a.connector::release),
                        WorkManager.INDEFINITE, null, null);
            }
        } catch (WorkException e) {
            a.stop(Duration.ofSeconds(5));
            throw new ResourceException("cannot start the activation's poller: " + e.getMessage(), e);
        }
        LOG.infof("activation %s on %s listening at %s%s: SRQ max_wr %d, %d buffers of %d bytes, fill %d, limit %d",
                a.srqName, a.context.deviceName(), a.listener.localAddress(), config.connectTo() == null ? ""
                        : ", keeping " + config.connectCount() + " connection(s) to " + config.connectTo(),
                a.srq.maxWr(), config.srq().maxWr(), config.bufferSize(), a.fill, config.srq().srqLimit());
        return a;
    }

    /** Opens the device and every native object, starts no Work (benchmarks drive {@link #pollOnce}). */
    static SrqActivation open(WorkManager wm, LimitEventSink sink, MessageEndpointFactory factory,
                              InboundConfig config) throws ResourceException {
        Context context;
        try {
            context = config.device().open();
        } catch (VerbsException e) {
            throw new ResourceException("cannot open the RDMA device for the activation of "
                    + factory.getEndpointClass().getName() + ": " + e.getMessage(), e);
        }
        SrqActivation a;
        try {
            config.checkAgainst(SrqActivationSpec.check(), context.queryDevice());
            a = new SrqActivation(factory, config, sink, context);
        } catch (VerbsException | ResourceException | RuntimeException | OutOfMemoryError e) {
            try {
                context.close();
            } catch (VerbsException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof ResourceException re) {
                throw re;
            }
            String what = e instanceof OutOfMemoryError
                    ? "cannot allocate the receive slab of srqMaxWr × bufferSize = " + config.srq().maxWr() + " × "
                            + config.bufferSize() + " bytes (" + e.getMessage() + ")"
                    : e.getMessage();
            throw new ResourceException("activation of " + factory.getEndpointClass().getName() + " on "
                    + context.deviceName() + ": " + what, e);
        }
        a.workManager = wm;
        return a;
    }

    /** Benchmarks: a connection on the SRQ whose QP (in RESET) the caller connects directly. */
    QueuePair openLoopbackQp() throws VerbsException {
        return RcConnection.create(pd, RcConnection.Receives.fromSrq(cq, srq),
                new RcConnection.Sends(config.replyBufferSize(), Links.REPLY_BUFFER_SIZE, false)).qp();
    }

    Context context() {
        return context;
    }

    String srqName() {
        return srqName;
    }

    EndpointPool endpoints() {
        return endpoints;
    }

    /** @return the endpoint factory this activation serves */
    public MessageEndpointFactory factory() {
        return factory;
    }

    /** @return where the listener is bound */
    public InetSocketAddress listenAddress() {
        return listener.localAddress();
    }

    /** @return the device */
    public String deviceName() {
        return context.deviceName();
    }

    /**
     * Sends a reply on the connection a message arrived on.
     *
     * @param qpNum   the local QP of the message (its work completion's qp_num)
     * @param message the bytes, at most replyBufferSize
     * @param immData immediate data, or null
     * @throws VerbsException ENOTCONN when that connection is gone; else as {@link RcConnection#send}
     */
    void reply(int qpNum, ByteBuffer message, Integer immData) throws VerbsException {
        links.reply(qpNum, message, immData);
    }

    /** A batch's delivery ended: its buffers go back for reposting and its endpoint slot frees up. */
    void delivered(Delivery batch) {
        delivered.add(batch.count());
        if (batch.failures() > 0) {
            failures.add(batch.failures());
        }
        returned.offer(batch);
        permits.release();
        if (stopping) {
            freeWhenIdle();
        }
    }

    // ---------------------------------------------------------------- poller

    private void pollLoop() {
        try (WorkCompletionArray wcs = new WorkCompletionArray(BATCH); ReceiveWorkRequests wrs = new ReceiveWorkRequests(BATCH)) {
            long lastWork = System.nanoTime();
            int emptyPolls = 0;
            while (pollerRunning) {
                int n = pollOnce(wcs, wrs);
                if (n < 0) {
                    // backpressure: every endpoint is busy; completions stay in the CQ
                    if (permits.tryAcquire(EVENT_WAIT_MS, TimeUnit.MILLISECONDS)) {
                        permits.release();
                    }
                    continue;
                }
                if (n > 0) {
                    lastWork = System.nanoTime();
                    emptyPolls = 0;
                    continue;
                }
                if (draining && ++emptyPolls >= 2 && permits.availablePermits() == config.maxConcurrency()) {
                    break;
                }
                waitForCompletions(lastWork);
            }
        } catch (VerbsException | RuntimeException e) {
            if (pollerRunning) {
                LOG.errorf(e, "activation %s: poller stopped", srqName);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            pollerDone.countDown();
            if (stopping) {
                freeWhenIdle();
            }
        }
    }

    /**
     * One turn of the poller: reposts returned buffers and tops the SRQ up, re-arms the limit if
     * asked, then takes up to 32 completions and hands them to an endpoint.
     *
     * @return completions taken, or -1 when every endpoint is busy (nothing polled)
     */
    int pollOnce(WorkCompletionArray wcs, ReceiveWorkRequests wrs) throws VerbsException, InterruptedException {
        topUp(wrs);
        if (rearm) {
            rearm = false;
            srq.armLimit(config.srq().srqLimit());
        }
        if (permits.availablePermits() == 0) {
            return -1;
        }
        int n = cq.poll(wcs, BATCH);
        if (n > 0) {
            dispatch(wcs, n);
        }
        return n;
    }

    private void waitForCompletions(long lastWork) throws VerbsException {
        switch (config.pollMode()) {
            case BUSY -> Thread.onSpinWait();
            case ADAPTIVE -> {
                if (System.nanoTime() - lastWork < ADAPTIVE_SPIN_NANOS) {
                    Thread.onSpinWait();
                } else {
                    sleepOnChannel();
                }
            }
            case EVENT -> sleepOnChannel();
        }
    }

    /**
     * First empty poll: arm the CQ and poll once more (a completion that arrived before the arming
     * raises no event). Second: sleep on the channel, bounded, so returned buffers and deactivation
     * are noticed.
     */
    private void sleepOnChannel() throws VerbsException {
        if (!armed) {
            cq.requestNotify(false);
            armed = true;
            return;
        }
        if (returned.isEmpty()) {
            channel.getCqEvent(Duration.ofMillis(draining ? 1 : EVENT_WAIT_MS));
        }
        armed = false;
    }

    /** Counts the n completions, frees the buffers of error ones, hands the rest to one endpoint. */
    private void dispatch(WorkCompletionArray wcs, int n) throws InterruptedException {
        completed.add(n);
        outstanding -= n;
        Delivery d = null;
        for (int i = 0; i < n; i++) {
            if (!wcs.isSuccess(i)) {
                errors.increment();
                LOG.debugf("activation %s: %s completion of buffer %d on QP %d", srqName, wcs.status(i), wcs.wrId(i),
                        wcs.qpNum(i));
                free[freeCount++] = (int) wcs.wrId(i);
                continue;
            }
            if (d == null) {
                d = spare.isEmpty() ? new Delivery(this, slab.segment(), config.bufferSize(), BATCH) : spare.pop();
            }
            d.add(wcs, i);
        }
        if (d == null) {
            return;
        }
        permits.acquire();
        try {
            workManager.scheduleWork(d);
        } catch (WorkException e) {
            LOG.warnf(e, "activation %s: cannot schedule delivery; running it on the poller", srqName);
            d.run();
        }
    }

    /** Reposts returned buffers and tops the SRQ up to the fill level, in chains of up to BATCH. */
    private void topUp(ReceiveWorkRequests wrs) throws VerbsException {
        Delivery done;
        while ((done = returned.poll()) != null) {
            for (int k = 0; k < done.count(); k++) {
                free[freeCount++] = done.buffer(k);
            }
            done.clear();
            spare.push(done);
        }
        long want = fill - outstanding;
        while (want > 0 && freeCount > 0) {
            int k = 0;
            while (k < wrs.capacity() && k < want && freeCount > 0) {
                int buffer = free[--freeCount];
                wrs.set(k++, buffer, slab.address() + (long) buffer * config.bufferSize(), config.bufferSize(), slab.lkey());
            }
            srq.postReceive(wrs, k);
            outstanding += k;
            posted.add(k);
            want -= k;
        }
    }

    // ---------------------------------------------------------------- control

    private void controlLoop() {
        try {
            while (controlRunning) {
                Optional<CmEvent> e = listener.nextEvent(Duration.ofMillis(20));
                if (e.isPresent()) {
                    cmEvent(e.get());
                }
                Optional<AsyncEvent> a;
                while (controlRunning && (a = context.getAsyncEvent(Duration.ZERO)).isPresent()) {
                    asyncEvent(a.get());
                }
            }
        } catch (VerbsException | RuntimeException e) {
            if (controlRunning) {
                LOG.errorf(e, "activation %s: control loop stopped", srqName);
            }
        } finally {
            controlDone.countDown();
        }
    }

    private void cmEvent(CmEvent e) {
        if (e.type() == CmEventType.CONNECT_REQUEST) {
            try {
                RcConnection link = links.accept(e.request());
                LOG.debugf("activation %s: accepted %s on QP %d", srqName, e.request().remoteAddress(), link.qpNum());
            } catch (VerbsException | RuntimeException failure) {
                LOG.warnf("activation %s: refusing %s: %s", srqName, e.request().remoteAddress(), failure.getMessage());
                try {
                    e.request().reject();
                } catch (VerbsException | RuntimeException ignored) {
                    // the peer times out
                }
            }
        } else if (e.connection() != null && (e.type() == CmEventType.DISCONNECTED
                || e.type() == CmEventType.TIMEWAIT_EXIT || e.type() == CmEventType.DEVICE_REMOVAL)) {
            links.drop(e.connection().qp().qpNum());
        }
    }

    private void asyncEvent(AsyncEvent e) {
        if (e.type() == AsyncEventType.SRQ_LIMIT_REACHED && e.element() == srq) {
            limitEvents.increment();
            int before = fill;
            if (config.replenish() == InboundConfig.Replenish.GROW) {
                fill = Math.min(config.srq().maxWr(), Math.max(before * 2, before + 1));
            }
            rearm = true;
            SrqLimitReached event = new SrqLimitReached(srqName, context.deviceName(), config.srq().srqLimit(),
                    (int) outstanding, Instant.now());
            LOG.debugf("activation %s: SRQ limit %d reached, %d outstanding; fill %d -> %d", srqName,
                    config.srq().srqLimit(), outstanding, before, fill);
            try {
                sink.fire(event, factory.getEndpointClass().getClassLoader());
            } catch (RuntimeException observerFailure) {
                LOG.warnf(observerFailure, "activation %s: an SrqLimitReached observer failed", srqName);
            }
        } else if (e.type() == AsyncEventType.DEVICE_FATAL) {
            LOG.errorf("activation %s: IBV_EVENT_DEVICE_FATAL on %s; no more messages will arrive", srqName,
                    context.deviceName());
        } else {
            LOG.debugf("activation %s: async event %s", srqName, e.type());
        }
    }

    // ---------------------------------------------------------------- lifecycle

    /**
     * Deactivation: stops accepting and connecting, disconnects every connection, delivers what is
     * already in the CQ, waits for running deliveries, releases the endpoints and frees every native
     * object — all within {@code bound}. An endpoint still inside onReceive at the bound keeps its
     * message buffer (and so the device context) alive: the endpoints are released and the natives
     * freed when that last delivery returns, never under it. Idempotent.
     *
     * @param bound the longest the deactivation waits
     */
    public void stop(Duration bound) {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        if (!worksStarted) {
            controlDone.countDown();
            pollerDone.countDown();
        }
        long start = System.nanoTime();
        long quarter = bound.toNanos() / 4;
        long deadline = start + bound.toNanos();
        controlRunning = false;
        if (connector != null) {
            connector.stop(start + quarter);
        }
        await(controlDone, start + quarter);
        Teardown.quietly(listener); // disconnects and destroys every accepted connection id
        links.closeAll();
        draining = true;
        if (!await(pollerDone, start + 3 * quarter)) {
            pollerRunning = false;
            await(pollerDone, deadline);
        }
        pollerRunning = false;
        boolean idle = false;
        try {
            idle = permits.tryAcquire(config.maxConcurrency(), Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (idle) {
                permits.release(config.maxConcurrency());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!idle || pollerDone.getCount() != 0) {
            LOG.warnf("activation %s: deliveries still running %d ms into deactivation; the endpoints and native "
                    + "objects are freed when they return", srqName, bound.toMillis());
        }
        stopping = true;
        freeWhenIdle();
    }

    /** @return whether the native objects are freed (deactivation done and no delivery left) */
    boolean freed() {
        return freed.get();
    }

    /** Frees once: when deactivation asked for it and neither the poller nor a batch is running. */
    private void freeWhenIdle() {
        if (pollerDone.getCount() == 0 && permits.availablePermits() == config.maxConcurrency()
                && freed.compareAndSet(false, true)) {
            endpoints.releaseAll();
            Teardown.quietly(context);
            LOG.infof("activation %s stopped: %s", srqName, statistics());
        }
    }

    private static boolean await(CountDownLatch latch, long deadlineNanos) {
        try {
            return latch.await(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** @return the counters now */
    public ActivationStatistics statistics() {
        return new ActivationStatistics(srqName, context.deviceName(), posted.sum(), completed.sum(), delivered.sum(),
                failures.sum(), errors.sum(), limitEvents.sum(), outstanding, fill, links.size());
    }
}
