package io.rdma.srq.ra.outbound;

import io.rdma.srq.ra.support.SystemProperties;

/**
 * How long a synchronous caller of one peer polls and spins for its reply before it parks, in ns:
 * adaptive per peer. A park costs the reply two hand-offs (the servicing loop's wake-up, then the
 * caller's), each a few µs on bare metal and tens to hundreds of µs in a virtual machine whose idle
 * vCPU must be woken; so a caller spins as long as its peer's replies usually come back within the
 * spin, and only briefly for a peer whose replies take longer (a slow responder), where spinning
 * would burn a core for nothing.
 *
 * <p>The rule: a moving average of the peer's reply times (each call's post-to-reply time, weight
 * 1/8); while it is at most half of {@link #MAX_NANOS} the caller spins up to {@link #MAX_NANOS}
 * (default 200 µs, system property {@code srq.call.spinNanos}, 0..1,000,000,000; 0: never spin), otherwise up to
 * {@link #BASE_NANOS} (20 µs, or {@link #MAX_NANOS} if that is less). A new peer starts with the
 * long spin. Only callers holding a {@link io.rdma.srq.ra.support.SpinBudget} slot spin at all, so
 * on 2 cores at most one caller spins at a time.
 *
 * <p>Chosen by measurement (it-tests/bench/RESULTS.md, "The caller's spin"): in WildFly on 2 vCPUs
 * an EJB → MDB → EJB round trip took a median of 14–40 µs with a 20 µs spin (about half of the
 * calls parked: p99 0.1–3 ms) and 2.4–13 µs with a 200 µs spin (p99 15–90 µs).
 *
 * <p>Thread-safe: the average is updated without a lock by every caller of the peer; an update lost
 * to a concurrent one changes an estimate, nothing else.
 */
final class CallSpin {
    /** The longest spin, for a peer whose replies come fast, ns (system property {@code srq.call.spinNanos}). */
    static final long MAX_NANOS = SystemProperties.CALL_SPIN_NANOS.readOrDefault();
    /** The spin for a peer whose replies come slower than half of {@link #MAX_NANOS}, ns. */
    static final long BASE_NANOS = Math.min(20_000L, MAX_NANOS);

    /** Moving average of the reply times, ns (0: none yet). */
    private volatile long averageNanos;

    /** @return how long the next caller spins before it parks, ns */
    long nanos() {
        return averageNanos <= MAX_NANOS / 2 ? MAX_NANOS : BASE_NANOS;
    }

    /** @param replyNanos one call's time from its post to its reply, ns */
    void replied(long replyNanos) {
        long a = averageNanos;
        averageNanos = a == 0 ? replyNanos : a + (replyNanos - a) / 8;
    }

    /** @return the moving average of the reply times, ns (0: none yet) */
    long averageNanos() {
        return averageNanos;
    }
}
