package io.rdma.srq.ra.inbound.connections;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the poller and the connections leaving the activation ({@link Retiring}) tell each other
 * about the shared CQ. A QP may be destroyed only once every completion it put in the CQ has been
 * polled (driver note 18: mlx5's ibv_destroy_qp(3) removes the unpolled ones, so the messages
 * acknowledged to their sender would vanish uncounted and their receive buffers never come back).
 * All QPs complete on one CQ, polled only by the poller, so "taken" means: the poller polled the CQ
 * empty after the moment the QP could add no more (its IBV_EVENT_QP_LAST_WQE_REACHED, or the quiet
 * period after it entered ERROR).
 * <ul>
 *   <li>the poller reports each poll that found the CQ empty (fewer completions than it asked for)
 *       with the {@link System#nanoTime()} taken just before that poll ({@link #emptied});</li>
 *   <li>while a QP is leaving ({@link #want}), the poller keeps polling even when its endpoints are
 *       all busy, holding what it polls (in its receive buffers, not reposted: senders still see RNR
 *       backpressure) until an endpoint is free, so the CQ gets empty however slow delivery is;</li>
 *   <li>the QP is destroyed once {@link #emptiedSince} the moment it could add no more.</li>
 * </ul>
 * Thread-safe.
 */
public final class CqSweep {
    /**
     * How long the CQ must stay empty before it counts as empty, ms (driver note 18: completions of
     * the last packets may still arrive shortly after a QP entered ERROR): the poller's drain and a
     * leaving QP without IBV_EVENT_QP_LAST_WQE_REACHED ({@link Retiring}) both wait this long.
     */
    public static final long QUIET_MS = 20;
    private final AtomicInteger wanted = new AtomicInteger();
    /** nanoTime before the latest poll that found the CQ empty. */
    private volatile long emptiedAt = System.nanoTime() - TimeUnit.DAYS.toNanos(1);

    /** Nothing leaving yet. */
    public CqSweep() {
    }

    /** A QP is leaving: the poller must poll the CQ empty, whatever its backpressure. */
    void want() {
        wanted.incrementAndGet();
    }

    /** A leaving QP was destroyed. */
    void done() {
        wanted.decrementAndGet();
    }

    /** @return whether a QP waits for the CQ to be polled empty */
    public boolean wanted() {
        return wanted.get() > 0;
    }

    /**
     * The poller's poll found the CQ empty.
     *
     * @param pollStartNanos {@link System#nanoTime()} read before that poll: every completion written
     *                       before it has been taken
     */
    public void emptied(long pollStartNanos) {
        emptiedAt = pollStartNanos;
    }

    /**
     * @param nanos a {@link System#nanoTime()}
     * @return whether every completion written before {@code nanos} has been polled
     */
    boolean emptiedSince(long nanos) {
        return emptiedAt - nanos >= 0;
    }
}
