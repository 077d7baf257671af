package io.rdma.srq.ra.inbound.delivery;

import io.rdma.srq.ra.inbound.config.InboundConfig;
import io.rdma.srq.ra.inbound.connections.CqSweep;
import io.rdma.srq.ra.inbound.connections.Links;
import io.rdma.srq.ra.support.LongRunningWork;

import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CompletionChannel;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.WorkCompletionArray;
import io.rdma.srq.ra.support.RaLogger;
import io.rdma.srq.ra.support.RateLimitedLog;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkManager;
import org.jboss.logging.Logger;

import java.io.Serial;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The activation's poller, one long-running Work: each turn ({@link #pollOnce}) reposts the buffers
 * of returned batches and tops the SRQ up ({@link ReceiveBuffers}), then takes up to
 * {@value #BATCH} completions from the CQ (ibv_poll_cq(3)) and hands the successful ones to one
 * endpoint as a {@link Delivery} batch on the WorkManager. Error completions are counted, their
 * buffers reposted, never delivered; so are completions whose wr_id or byte_len the SRQ cannot have
 * produced ({@link CompletionCheck}), but for reposting a buffer that is not a posted one of ours.
 *
 * <p>Backpressure: at most maxConcurrency batches are out at once (permits); with none free the
 * poller stops polling, so completions wait in the CQ and nothing is dropped. An empty poll waits
 * as pollMode says ({@link CompletionWait}). When draining (deactivation, {@link #drain}) it no
 * longer reposts and ends once the CQ has stayed empty for {@value #QUIET_MS} ms with no batch out;
 * at the drain timeout it stops delivering and counts what is left as undelivered.
 *
 * <p>Ordering (activation property ordering): {@code none} hands each poll's messages to one
 * endpoint as one batch, so messages of one connection may run concurrently and out of order;
 * {@code connection} queues them per connection ({@link ConnectionLanes}) and hands each connection
 * at most one batch at a time, connections in parallel up to maxConcurrency, with a bound on what
 * one connection holds of the SRQ. {@link #whenIdle} runs an action once the loop has ended and
 * every batch has come back: deactivation frees the natives so, never under a running delivery.
 *
 * <p>Inline delivery: with maxConcurrency 1 and ordering {@code none} the poller runs each batch
 * itself instead of handing it to the WorkManager. It changes nothing a pool thread would do there:
 * with one endpoint the poller polls nothing while a batch is out either way (no free permit), the
 * batches run one after another in poll order, and accepts and connects run on the control loop and
 * the connector, never here. What it saves is a thread wake-up per batch (5–10 µs on a shared VM,
 * it-tests/bench/RESULTS.md), most of a request/reply round trip. In a container the poller is itself
 * a Work of the container's WorkManager, so the endpoint is still invoked through the container's
 * MessageEndpoint (its transaction, security and class loader), on a container thread. With more
 * endpoints a slow one on the poller's thread would hold up batches that free endpoints could take,
 * so they stay on the WorkManager; ordering=connection too (its lanes keep polling behind a stalled
 * connection to set it apart). A poller that delivers inline does not spin after work in pollMode
 * adaptive ({@link #waitMode}).
 */
public final class Poller extends LongRunningWork {
    /** Completions per poll, and so messages per delivery batch, at most. */
    public static final int BATCH = io.rdma.srq.ra.support.SrqProperty.MAX_BATCH;
    /** How long the CQ must stay empty before a drain counts it empty ({@link CqSweep#QUIET_MS}), ms. */
    public static final long QUIET_MS = CqSweep.QUIET_MS;
    /** How often a paused poller looks whether it was resumed, ms. */
    private static final long PAUSE_CHECK_MS = 10;
    private static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(QUIET_MS);
    @Serial
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(Poller.class);

    private final String name;
    /** SRQRA0310: a WorkManager that refuses every batch would log one line per batch. */
    private final RateLimitedLog<String> notScheduledLines = new RateLimitedLog<>();
    private final CompletionQueue cq;
    private final CompletionWait wait;
    private final ReceiveBuffers buffers;
    private final Links links;
    private final EndpointPool endpoints;
    private final WorkManager workManager;
    private final int maxConcurrency;
    private final Semaphore permits;
    /** Batches run on the poller's thread (see the class comment); else on the WorkManager. */
    private final boolean inline;
    /**
     * Held by the loop while it touches the CQ, the buffers and the batch objects; let go only while
     * it runs a batch inline, so that a deactivation past its drain timeout can sweep the CQ meanwhile
     * ({@link #awaitDrained}).
     */
    private final ReentrantLock turn = new ReentrantLock();
    /** Released whenever a batch comes back: wakes a poller whose lanes wait for one. */
    private final Semaphore batchEnded = new Semaphore(0);
    /** Batches whose delivery ended: their buffers go back to the SRQ, the objects are reused. */
    private final ConcurrentLinkedQueue<Delivery> returned = new ConcurrentLinkedQueue<>();
    /** Batch objects ready for reuse, touched by the poller only. */
    private final ArrayDeque<Delivery> spare = new ArrayDeque<>();
    private final DeliveryFigures figures = new DeliveryFigures();
    private final DeliveryRules rules;
    private final FailurePause pause;
    /** ordering=connection: the per-connection lanes; null for ordering=none. */
    private final ConnectionLanes lanes;
    /** Receive buffers kept past their call by ReceiveCompletion.retain(). */
    private final RetainedBuffers retained;
    /** What leaving connections and the poller tell each other of the CQ ({@link io.rdma.srq.ra.inbound.connections.Retiring}). */
    private final CqSweep sweep;
    /**
     * Completions polled while delivery was behind, because a leaving connection needed the CQ polled
     * empty ({@link CqSweep}), in poll order, still in their receive buffers; handed on before
     * anything polled later. The poller's thread only.
     */
    private final ArrayDeque<ConnectionLanes.Waiting> swept = new ArrayDeque<>();
    /** Each completion's wr_id and byte_len checked before use. */
    private final CompletionCheck checked;
    private final AtomicReference<Runnable> whenIdle = new AtomicReference<>();
    private volatile boolean draining;
    private volatile long drainDeadline;
    /** The drain timeout passed: batches skip what they have not begun. */
    private volatile boolean abandoned;

    /**
     * @param name        the activation's SRQ name, for logs and the thread
     * @param config      pollMode and maxConcurrency
     * @param cq          the CQ of the SRQ's receive completions
     * @param channel     its completion channel; null for pollMode busy only
     * @param buffers     the SRQ's receive buffers
     * @param links       the activation's connections, for replies
     * @param factory     makes the endpoints (at most maxConcurrency, reused)
     * @param workManager runs the delivery batches
     * @param rules       redelivery, the transaction watch and dead letters
     * @param sweep       where the poller reports polling the CQ empty, and learns that it must
     * @throws NullPointerException without a channel for pollMode event or adaptive
     */
    public Poller(String name, InboundConfig config, CompletionQueue cq, CompletionChannel channel,
                  ReceiveBuffers buffers, Links links, MessageEndpointFactory factory, WorkManager workManager,
                  DeliveryRules rules, CqSweep sweep) {
        super("srq-poller-" + name);
        this.name = name;
        this.sweep = sweep;
        this.cq = cq;
        this.wait = new CompletionWait(waitMode(config), cq, channel);
        this.buffers = buffers;
        this.checked = new CompletionCheck(name, buffers);
        this.links = links;
        this.endpoints = new EndpointPool(factory);
        this.workManager = workManager;
        this.rules = rules;
        this.pause = new FailurePause(name, config.maxSequentialDeliveryFailures(), config.pauseTimeout());
        this.maxConcurrency = config.maxConcurrency();
        this.permits = new Semaphore(maxConcurrency);
        this.inline = deliversInline(config);
        this.retained = new RetainedBuffers(buffers, config.maxHeldPerConnection(),
                Math.max(1, config.srq().maxWr() / 2));
        this.lanes = config.ordering() == InboundConfig.Ordering.CONNECTION
                ? new ConnectionLanes(name, buffers, links, config.maxHeldPerConnection(),
                maxConcurrency) : null;
    }

    /**
     * @param config the activation's configuration
     * @return whether its poller runs the delivery batches itself: maxConcurrency 1 and ordering none
     */
    static boolean deliversInline(InboundConfig config) {
        return config.maxConcurrency() == 1 && config.ordering() == InboundConfig.Ordering.NONE;
    }

    /**
     * @param config the activation's configuration
     * @return how the poller waits: pollMode, except that a poller delivering inline does not spin
     *         after work (adaptive waits as event): the thread waiting for the endpoint's reply, if any,
     *         needs the spin slot and the core more (CallBenchmark, it-tests/bench/RESULTS.md)
     */
    static InboundConfig.PollMode waitMode(InboundConfig config) {
        return deliversInline(config) && config.pollMode() == InboundConfig.PollMode.ADAPTIVE
                ? InboundConfig.PollMode.EVENT : config.pollMode();
    }

    @Override
    protected void loop() throws VerbsException, InterruptedException {
        turn.lock();
        try (WorkCompletionArray wcs = new WorkCompletionArray(BATCH); ReceiveWorkRequests wrs = new ReceiveWorkRequests(BATCH)) {
            long lastWork = System.nanoTime();
            int emptyPolls = 0;
            while (running()) {
                if (draining && System.nanoTime() - drainDeadline >= 0) {
                    abandon(wcs);
                    break;
                }
                if (!draining && pause.paused()) {
                    // completions wait in the CQ; the SRQ empties and senders see RNR backpressure
                    reclaim();
                    wait.rest();
                    if (sweep.wanted()) {
                        sweepOnce(wcs); // a leaving connection's completions are taken, held for later
                    }
                    Thread.sleep(PAUSE_CHECK_MS);
                    continue;
                }
                int n = pollOnce(wcs, wrs);
                if (n != 0) {
                    wait.rest(); // work, or a wait for an endpoint: no spin slot held meanwhile
                }
                if (n < 0 && lanes != null) {
                    // backpressure: the connections are behind; completions stay in the CQ
                    batchEnded.tryAcquire(1, TimeUnit.MILLISECONDS);
                    continue;
                }
                if (n < 0) {
                    // backpressure: every endpoint is busy; completions stay in the CQ
                    if (permits.tryAcquire(CompletionWait.EVENT_WAIT_MS, TimeUnit.MILLISECONDS)) {
                        permits.release();
                    }
                    continue;
                }
                if (n > 0) {
                    lastWork = System.nanoTime();
                    emptyPolls = 0;
                    continue;
                }
                if (draining && ++emptyPolls >= 2 && permits.availablePermits() == maxConcurrency
                        && swept.isEmpty() && (lanes == null || lanes.waiting() == 0)
                        && System.nanoTime() - lastWork >= QUIET_NANOS) {
                    break;
                }
                if (lanes != null && lanes.waiting() > 0) {
                    // messages wait behind busy connections: go on as soon as a batch comes back
                    batchEnded.tryAcquire(1, TimeUnit.MILLISECONDS);
                    continue;
                }
                wait.idle(lastWork, !returned.isEmpty(), draining || sweep.wanted());
            }
        } finally {
            figures.undelivered(dropSwept()); // the loop ended without a drain: nothing is delivered any more
            wait.rest();
            turn.unlock();
        }
    }

    /**
     * The drain timeout passed: batches still out skip the messages they have not begun, and what the
     * CQ still holds is polled (its successful completions counted undelivered, never delivered) until
     * it has stayed empty for {@value #QUIET_MS} ms (driver note 18: completions of the last packets
     * may be written after the QPs moved to ERROR, and nothing signals the last one on rxe 6.1).
     */
    private void abandon(WorkCompletionArray wcs) throws VerbsException, InterruptedException {
        abandoned = true;
        reclaim();
        figures.undelivered(dropSwept());
        if (lanes != null) {
            figures.undelivered(lanes.abandon());
        }
        long lastWork = System.nanoTime();
        while (System.nanoTime() - lastWork < QUIET_NANOS) {
            int n = cq.poll(wcs, BATCH);
            if (n == 0) {
                Thread.sleep(1);
                continue;
            }
            lastWork = System.nanoTime();
            figures.polled(n);
            buffers.consumed(n);
            for (int i = 0; i < n; i++) {
                if (wcs.isSuccess(i)) {
                    figures.undelivered(1);
                } else {
                    figures.error();
                }
            }
        }
    }

    /**
     * One turn: reposts returned buffers and tops the SRQ up (re-arming the limit if asked), then
     * takes up to {@value #BATCH} completions and hands the successful ones to an endpoint. The
     * poller's thread only (or, with the Work never scheduled, one caller's).
     *
     * @param wcs the work completion array to poll into, ≥ {@value #BATCH} entries
     * @param wrs the receive WR chain to repost with
     * @return completions taken, or -1 when every endpoint is busy (nothing polled)
     * @throws VerbsException the errno of ibv_post_srq_recv, ibv_modify_srq or ibv_poll_cq
     * @throws InterruptedException while waiting for an endpoint permit
     */
    public int pollOnce(WorkCompletionArray wcs, ReceiveWorkRequests wrs) throws VerbsException, InterruptedException {
        reclaim();
        if (!draining) {
            buffers.topUp(wrs);
        }
        boolean behind;
        if (lanes != null) {
            feedSwept();
            dispatchLanes();
            behind = !swept.isEmpty() || !lanes.keepingUp();
        } else {
            dispatchSwept();
            behind = !swept.isEmpty() || permits.availablePermits() == 0;
        }
        if (behind) {
            // backpressure; but a leaving connection's completions are taken all the same, held
            return sweep.wanted() && sweepOnce(wcs) > 0 ? 1 : -1;
        }
        long start = System.nanoTime();
        int n = cq.poll(wcs, BATCH);
        if (n < BATCH) {
            sweep.emptied(start);
        }
        if (n > 0) {
            dispatch(wcs, n);
        }
        return n;
    }

    /**
     * Delivery is behind and a leaving connection needs the CQ polled empty ({@link CqSweep}): takes
     * up to {@value #BATCH} completions into {@link #swept}, to be handed on when an endpoint is free.
     *
     * @return completions taken
     */
    private int sweepOnce(WorkCompletionArray wcs) throws VerbsException {
        long start = System.nanoTime();
        int n = cq.poll(wcs, BATCH);
        if (n < BATCH) {
            sweep.emptied(start);
        }
        figures.polled(n);
        buffers.consumed(n);
        for (int i = 0; i < n; i++) {
            int buffer = checkedBuffer(wcs, i);
            if (buffer < 0) {
                continue;
            }
            int qpNum = wcs.qpNum(i);
            boolean hasImm = wcs.hasImm(i);
            swept.add(new ConnectionLanes.Waiting(buffer, wcs.byteLen(i), hasImm,
                    hasImm ? wcs.immData(i) : 0, qpNum, links.connectionId(qpNum), null));
        }
        return n;
    }

    /** ordering=none: the swept completions, oldest first, in batches while an endpoint is free. */
    private void dispatchSwept() {
        while (!swept.isEmpty() && permits.tryAcquire()) {
            Delivery d = batch();
            while (d.count() < d.capacity() && !swept.isEmpty()) {
                d.add(swept.poll());
            }
            schedule(d);
        }
    }

    /** ordering=connection: the swept completions, oldest first, into their lanes while they keep up. */
    private void feedSwept() {
        while (!swept.isEmpty() && lanes.keepingUp()) {
            for (int k = 0; k < BATCH && !swept.isEmpty(); k++) {
                lanes.offer(swept.poll());
            }
        }
    }

    /**
     * The swept completions will not be delivered (drain timeout, the loop ended): their buffers are
     * released.
     *
     * @return how many: acknowledged, never delivered (undelivered)
     */
    private int dropSwept() {
        int n = swept.size();
        ConnectionLanes.Waiting w;
        while ((w = swept.poll()) != null) {
            buffers.release(w.buffer());
        }
        return n;
    }

    /** The buffers of returned batches become free; the batch objects are kept for reuse. */
    private void reclaim() {
        retained.drainReleased();
        Delivery done;
        while ((done = returned.poll()) != null) {
            for (int k = 0; k < done.count(); k++) {
                if (done.buffer(k) >= 0) {
                    buffers.release(done.buffer(k));
                }
            }
            if (lanes != null && done.count() > 0) {
                lanes.ended(done);
            }
            done.clear();
            spare.push(done);
        }
    }

    /** Counts the n completions, frees the buffers of error ones, hands the rest to one endpoint. */
    private void dispatch(WorkCompletionArray wcs, int n) throws InterruptedException {
        figures.polled(n);
        buffers.consumed(n);
        Delivery d = null;
        for (int i = 0; i < n; i++) {
            int buffer = checkedBuffer(wcs, i);
            if (buffer < 0) {
                continue;
            }
            if (lanes != null) {
                lanes.offer(wcs, i, links.connectionId(wcs.qpNum(i)));
                continue;
            }
            if (d == null) {
                d = batch();
            }
            d.add(wcs, i);
        }
        if (lanes != null) {
            dispatchLanes();
            return;
        }
        if (d == null) {
            return;
        }
        permits.acquire();
        schedule(d);
    }

    /** Counts an error completion and frees its buffer (never delivered). */
    /**
     * Checks completion {@code i} before use (its wr_id and byte_len come from the device): an error
     * completion, or one whose byte_len exceeds the buffer, is counted and its buffer freed; one whose
     * wr_id names no posted buffer of ours is counted (logged) and nothing is reposted.
     *
     * @return its receive buffer, to deliver; -1 when it is not delivered
     */
    private int checkedBuffer(WorkCompletionArray wcs, int i) {
        int buffer = checked.buffer(wcs, i); // wr_id and byte_len from the device: checked before use
        if (buffer < 0) {
            figures.error(); // not a posted buffer of ours: nothing to repost (logged)
            return -1;
        }
        if (!wcs.isSuccess(i) || !checked.fits(wcs, i)) {
            figures.error();
            LOG.debugf("activation %s: %s completion of buffer %d on QP %d", name, CompletionCheck.status(wcs, i),
                    buffer, wcs.qpNum(i));
            buffers.release(buffer);
            return -1;
        }
        return buffer;
    }

    /** ordering=connection: a batch for each ready lane while an endpoint is free. */
    private void dispatchLanes() {
        while (lanes.waiting() > 0 && permits.tryAcquire()) {
            Delivery d = lanes.next(this::batch);
            if (d == null) {
                permits.release();
                return;
            }
            schedule(d);
        }
    }

    /** @return an empty batch: a reused one, or a new one */
    private Delivery batch() {
        return spare.isEmpty() ? new Delivery(name, endpoints, buffers, links, this::returned, this::abandoned,
                rules, pause, retained, BATCH) : spare.pop();
    }

    /**
     * @return whether batches skip what they have not begun: the drain timeout passed (read by the
     *         batch itself too, so a batch on the poller's thread stops at the deadline as one on a
     *         pool thread does)
     */
    private boolean abandoned() {
        return abandoned || (draining && System.nanoTime() - drainDeadline >= 0);
    }

    /**
     * Runs the batch (its permit taken) here when the poller delivers inline, giving its spin slot
     * back first (a caller waiting for the reply may spin meanwhile); else on the WorkManager, or here
     * when that refuses.
     */
    private void schedule(Delivery d) {
        if (inline) {
            wait.rest();
            boolean held = turn.isHeldByCurrentThread(); // not when a benchmark drives pollOnce
            if (held) {
                turn.unlock();
            }
            try {
                d.run();
            } finally {
                if (held) {
                    turn.lock();
                }
            }
            return;
        }
        try {
            workManager.scheduleWork(d);
        } catch (WorkException e) {
            notScheduledLines.event(name, (notLogged, seconds) -> RaLogger.LOG.deliveryNotScheduled(e, name, notLogged,
                    seconds));
            d.run();
        }
    }

    /** A batch's delivery ended: its buffers go back for reposting and its endpoint slot frees up. */
    private void returned(Delivery batch) {
        figures.returned(batch);
        returned.offer(batch);
        permits.release();
        if (lanes != null) {
            batchEnded.release();
        }
        runIfIdle();
    }

    @Override
    protected void afterLoop() {
        runIfIdle();
    }

    /**
     * Deactivation, once the QPs are in ERROR (no arrival is acknowledged any more): stop reposting,
     * deliver what the CQ holds until it is empty or the timeout passes, then count the rest
     * undelivered and end the loop (see the class comment).
     *
     * @param timeout the drain timeout (activation property drainTimeout)
     */
    public void drain(Duration timeout) {
        drainDeadline = System.nanoTime() + timeout.toNanos();
        draining = true;
    }

    /**
     * Waits for the loop to end after {@link #drain}. A loop that died (an exception or an Error
     * ended it, {@link #failure()}) drains nothing: this thread then sweeps the CQ as at the drain
     * timeout ({@link #abandon}: its messages counted undelivered). A batch the poller runs inline holds the loop up
     * as long as its endpoint runs, where a pool thread's would not: once the drain timeout and a
     * quiet period have passed, this thread then does what the loop would have done at the drain
     * timeout ({@link #abandon}: the CQ swept, its messages counted undelivered) while the batch runs
     * on, skipping what it has not begun. The loop ends when the batch returns.
     *
     * @param deadlineNanos {@link System#nanoTime()} by which to give up waiting
     * @return whether the CQ is drained: the loop ended, or swept here
     * @throws IllegalStateException before {@link #drain}
     */
    public boolean awaitDrained(long deadlineNanos) {
        if (!draining) {
            throw new IllegalStateException("awaitDrained before drain");
        }
        if (!inline || awaitEnd(Math.min(deadlineNanos, drainDeadline + 2 * QUIET_NANOS))) {
            if (!awaitEnd(deadlineNanos) || failure() == null) {
                return hasEnded();
            }
            // the loop died: what the CQ holds is counted here, as at the drain timeout
        }
        try {
            if (!turn.tryLock(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                return false;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        try (WorkCompletionArray wcs = new WorkCompletionArray(BATCH)) {
            if (!hasEnded() || failure() != null) {
                abandon(wcs);
            }
            return true;
        } catch (RuntimeException | Error e) { // a dead loop's CQ may fail again: deactivation goes on
            RaLogger.LOG.loopFailed(e, "srq-poller-" + name);
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            turn.unlock();
        }
    }

    /**
     * @param deadlineNanos {@link System#nanoTime()} by which to give up waiting
     * @return whether every batch has come back (no delivery running)
     */
    public boolean awaitDeliveries(long deadlineNanos) {
        try {
            if (permits.tryAcquire(maxConcurrency, Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                permits.release(maxConcurrency);
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    /**
     * Runs {@code action} once, as soon as the loop has ended and no batch is out — at once if that
     * is so already — on the thread that made it so (the caller, the poller's or a delivery's).
     *
     * @param action what to run, e.g. freeing the natives
     */
    public void whenIdle(Runnable action) {
        whenIdle.set(action);
        runIfIdle();
    }

    private void runIfIdle() {
        Runnable action = whenIdle.get();
        if (action != null && hasEnded() && permits.availablePermits() == maxConcurrency
                && whenIdle.compareAndSet(action, null)) {
            retained.detachAll(); // retained messages to the heap before the slab goes
            action.run();
        }
    }

    /** @return the completions taken and the batches' outcomes */
    public DeliveryFigures figures() {
        return figures;
    }

    /** Releases every endpoint (once no delivery runs). */
    public void releaseEndpoints() {
        endpoints.releaseAll();
    }





    /** Pauses delivery until {@link #resume()} (management); completions wait in the CQ. */
    public void hold() {
        pause.hold();
    }

    /** Ends a pause, after consecutive failures or by management; nothing when not paused. */
    public void resume() {
        pause.resume();
    }

    /** @return whether delivery is paused (after consecutive failures, or by management) */
    public boolean paused() {
        return pause.paused();
    }

    /** @return pauses after consecutive failures since activation */
    public long pauses() {
        return pause.pauses();
    }



    /** @return messages copied out of the SRQ past maxHeldPerConnection: waiting (ordering=connection) or retained */
    public long copiedOut() {
        return (lanes == null ? 0 : lanes.copiedOut()) + retained.copiedOut();
    }

    /** @return receive buffers kept by retained messages now */
    public int retainedBuffers() {
        return retained.retained();
    }

    /** @return connections disconnected for holding more than maxHeldPerConnection allows */
    public long slowDisconnects() {
        return lanes == null ? 0 : lanes.evicted();
    }
}
