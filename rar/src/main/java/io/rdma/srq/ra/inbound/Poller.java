package io.rdma.srq.ra.inbound;

import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CompletionChannel;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.WorkCompletionArray;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkManager;
import org.jboss.logging.Logger;

import java.io.Serial;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The activation's poller, one long-running Work: each turn ({@link #pollOnce}) reposts the buffers
 * of returned batches and tops the SRQ up ({@link ReceiveBuffers}), then takes up to
 * {@value #BATCH} completions from the CQ (ibv_poll_cq(3)) and hands the successful ones to one
 * endpoint as a {@link Delivery} batch on the WorkManager. Error completions are counted, their
 * buffers reposted, never delivered.
 *
 * <p>Backpressure: at most maxConcurrency batches are out at once (permits); with none free the
 * poller stops polling, so completions wait in the CQ and nothing is dropped. An empty poll waits
 * as pollMode says ({@link CompletionWait}). When draining (deactivation) the loop ends at the first
 * two empty polls with no batch out. {@link #whenIdle} runs an action once the loop has ended and
 * every batch has come back: deactivation frees the natives so, never under a running delivery.
 */
public final class Poller extends LongRunningWork {
    /** Completions per poll, and so messages per delivery batch, at most. */
    public static final int BATCH = 32;
    @Serial
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(Poller.class);

    private final String name;
    private final CompletionQueue cq;
    private final CompletionWait wait;
    private final ReceiveBuffers buffers;
    private final Links links;
    private final EndpointPool endpoints;
    private final WorkManager workManager;
    private final int maxConcurrency;
    private final Semaphore permits;
    /** Batches whose delivery ended: their buffers go back to the SRQ, the objects are reused. */
    private final ConcurrentLinkedQueue<Delivery> returned = new ConcurrentLinkedQueue<>();
    /** Batch objects ready for reuse, touched by the poller only. */
    private final ArrayDeque<Delivery> spare = new ArrayDeque<>();
    private final LongAdder completed = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder delivered = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final AtomicReference<Runnable> whenIdle = new AtomicReference<>();
    private volatile boolean draining;

    /**
     * @param name        the activation's SRQ name, for logs and the thread
     * @param config      pollMode and maxConcurrency
     * @param cq          the CQ of the SRQ's receive completions
     * @param channel     its completion channel; null for pollMode busy only
     * @param buffers     the SRQ's receive buffers
     * @param links       the activation's connections, for replies
     * @param factory     makes the endpoints (at most maxConcurrency, reused)
     * @param workManager runs the delivery batches
     * @throws NullPointerException without a channel for pollMode event or adaptive
     */
    public Poller(String name, InboundConfig config, CompletionQueue cq, CompletionChannel channel,
                  ReceiveBuffers buffers, Links links, MessageEndpointFactory factory, WorkManager workManager) {
        super("srq-poller-" + name);
        this.name = name;
        this.cq = cq;
        this.wait = new CompletionWait(config.pollMode(), cq, channel);
        this.buffers = buffers;
        this.links = links;
        this.endpoints = new EndpointPool(factory);
        this.workManager = workManager;
        this.maxConcurrency = config.maxConcurrency();
        this.permits = new Semaphore(maxConcurrency);
    }

    @Override
    protected void loop() throws VerbsException, InterruptedException {
        try (WorkCompletionArray wcs = new WorkCompletionArray(BATCH); ReceiveWorkRequests wrs = new ReceiveWorkRequests(BATCH)) {
            long lastWork = System.nanoTime();
            int emptyPolls = 0;
            while (running()) {
                int n = pollOnce(wcs, wrs);
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
                if (draining && ++emptyPolls >= 2 && permits.availablePermits() == maxConcurrency) {
                    break;
                }
                wait.idle(lastWork, !returned.isEmpty(), draining);
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
        buffers.topUp(wrs);
        if (permits.availablePermits() == 0) {
            return -1;
        }
        int n = cq.poll(wcs, BATCH);
        if (n > 0) {
            dispatch(wcs, n);
        }
        return n;
    }

    /** The buffers of returned batches become free; the batch objects are kept for reuse. */
    private void reclaim() {
        Delivery done;
        while ((done = returned.poll()) != null) {
            for (int k = 0; k < done.count(); k++) {
                buffers.release(done.buffer(k));
            }
            done.clear();
            spare.push(done);
        }
    }

    /** Counts the n completions, frees the buffers of error ones, hands the rest to one endpoint. */
    private void dispatch(WorkCompletionArray wcs, int n) throws InterruptedException {
        completed.add(n);
        buffers.consumed(n);
        Delivery d = null;
        for (int i = 0; i < n; i++) {
            if (!wcs.isSuccess(i)) {
                errors.increment();
                LOG.debugf("activation %s: %s completion of buffer %d on QP %d", name, wcs.status(i), wcs.wrId(i),
                        wcs.qpNum(i));
                buffers.release((int) wcs.wrId(i));
                continue;
            }
            if (d == null) {
                d = spare.isEmpty() ? new Delivery(name, endpoints, buffers, links, this::returned, BATCH) : spare.pop();
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
            LOG.warnf(e, "activation %s: cannot schedule delivery; running it on the poller", name);
            d.run();
        }
    }

    /** A batch's delivery ended: its buffers go back for reposting and its endpoint slot frees up. */
    private void returned(Delivery batch) {
        delivered.add(batch.count());
        if (batch.failures() > 0) {
            failures.add(batch.failures());
        }
        returned.offer(batch);
        permits.release();
        runIfIdle();
    }

    @Override
    protected void afterLoop() {
        runIfIdle();
    }

    /** Deactivation: deliver what is in the CQ, then end the loop (see the class comment). */
    void drain() {
        draining = true;
    }

    /**
     * @param deadlineNanos {@link System#nanoTime()} by which to give up waiting
     * @return whether every batch has come back (no delivery running)
     */
    boolean awaitDeliveries(long deadlineNanos) {
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
    void whenIdle(Runnable action) {
        whenIdle.set(action);
        runIfIdle();
    }

    private void runIfIdle() {
        Runnable action = whenIdle.get();
        if (action != null && hasEnded() && permits.availablePermits() == maxConcurrency
                && whenIdle.compareAndSet(action, null)) {
            action.run();
        }
    }

    /** Releases every endpoint (once no delivery runs). */
    void releaseEndpoints() {
        endpoints.releaseAll();
    }

    /** @return receive completions polled, success and error */
    long completed() {
        return completed.sum();
    }

    /** @return completions with a status other than SUCCESS */
    long errors() {
        return errors.sum();
    }

    /** @return messages delivered (onReceive returned or threw) */
    long delivered() {
        return delivered.sum();
    }

    /** @return deliveries that failed (onReceive, beforeDelivery or afterDelivery threw) */
    long failures() {
        return failures.sum();
    }
}
