package io.rdma.srq.ra.support.admission;

import java.util.HashSet;
import java.util.HexFormat;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * The nonces of the tokens one replay scope has seen ({@link ReplayScopes}: a key and a target), so
 * a token is accepted once. A nonce seen at wall-clock time {@code w} with timestamp {@code s} is
 * held until both clocks say its token is expired: {@code s + tokenMaxAge − w} (0..2 × tokenMaxAge)
 * of monotonic time ({@link System#nanoTime()}) has passed, so a forward step of the wall clock does
 * not drop it early, and the wall clock is past {@code s + tokenMaxAge}, so a backward step keeps it.
 * When a nonce is forgotten its timestamp raises the scope's horizon, and a later token stamped at
 * or before the horizon is refused ({@link RejectReason#EXPIRED}): a backward step of the wall clock
 * after that cannot make a forgotten nonce acceptable again. A fresh token is never that old unless
 * the wall clock went back: when a nonce is forgotten the clock is past {@code s + tokenMaxAge}, and a
 * token must lie within tokenMaxAge of it.
 *
 * <p>Bounded: when {@code capacity} nonces are held a new one is refused
 * ({@link RejectReason#REPLAY_CACHE_FULL}, counted), never made room for by forgetting a live one.
 * Only tokens whose MAC verified get here, so filling it needs the key. Thread-safe.
 */
final class ReplayCache {
    private final Set<String> held = new HashSet<>();
    private final PriorityQueue<Held> byDeadline = new PriorityQueue<>((a, b) -> Long.compare(a.deadline - b.deadline, 0));
    private int capacity;
    /** The newest timestamp among forgotten nonces, epoch milliseconds. */
    private long horizon = Long.MIN_VALUE;
    /** When the last nonce was forgotten (or the scope was made), nanoTime. */
    private long quietSince;

    /**
     * @param wallDeadline the token's expiry on the wall clock, epoch milliseconds
     * @param deadline     when it is looked at again, nanoTime
     */
    private record Held(String nonce, long stamp, long wallDeadline, long deadline) {
    }

    /**
     * @param capacity nonces held at most, ≥ 1
     * @param monoNow  {@link System#nanoTime()}
     */
    ReplayCache(int capacity, long monoNow) {
        this.capacity = capacity;
        this.quietSince = monoNow;
    }

    /** @param capacity nonces held at most from now on, ≥ 1 (the policy of the activation that uses the scope now) */
    synchronized void capacity(int capacity) {
        this.capacity = capacity;
    }

    /**
     * Records the nonce of a token whose MAC and timestamp verified.
     *
     * @param nonce        the token's nonce
     * @param stamp        the token's timestamp, epoch milliseconds
     * @param maxAgeMillis tokenMaxAge, milliseconds
     * @param wallNow      the listener's clock the timestamp was checked against, epoch milliseconds
     * @param monoNow      {@link System#nanoTime()}
     * @return null when new (and now held); REPLAYED when held; EXPIRED when stamped at or before the
     *         horizon; REPLAY_CACHE_FULL when {@code capacity} nonces are held
     */
    synchronized RejectReason record(byte[] nonce, long stamp, long maxAgeMillis, long wallNow, long monoNow) {
        expire(wallNow, monoNow);
        if (stamp <= horizon) {
            return RejectReason.EXPIRED;
        }
        String k = HexFormat.of().formatHex(nonce);
        if (held.contains(k)) {
            return RejectReason.REPLAYED;
        }
        if (held.size() >= capacity) {
            return RejectReason.REPLAY_CACHE_FULL;
        }
        held.add(k);
        byDeadline.add(new Held(k, stamp, stamp + maxAgeMillis, monoNow + nanosUntil(stamp + maxAgeMillis, wallNow,
                maxAgeMillis)));
        return null;
    }

    /** The wall-clock time left until {@code wallDeadline} has passed (+ 1 ms), at most 2 × tokenMaxAge, in nanoseconds. */
    private static long nanosUntil(long wallDeadline, long wallNow, long maxAgeMillis) {
        return (Math.clamp(wallDeadline - wallNow, 0, 2 * maxAgeMillis) + 1) * 1_000_000L;
    }

    /**
     * Forgets the nonces whose time is up on both clocks, raising the horizon; one whose monotonic time
     * is up while the wall clock (stepped back) still accepts its token is looked at again later.
     */
    private void expire(long wallNow, long monoNow) {
        for (Held h; (h = byDeadline.peek()) != null && monoNow - h.deadline > 0; ) {
            byDeadline.poll();
            if (wallNow <= h.wallDeadline) {
                byDeadline.add(new Held(h.nonce, h.stamp, h.wallDeadline, monoNow + nanosUntil(h.wallDeadline, wallNow,
                        h.wallDeadline - h.stamp)));
                continue;
            }
            held.remove(h.nonce);
            horizon = Math.max(horizon, h.stamp);
            quietSince = monoNow;
        }
    }

    /**
     * {@return whether the scope holds no nonce and forgot its last one at least {@code retainNanos} ago}
     *
     * @param wallNow     {@link System#currentTimeMillis()}
     * @param monoNow     {@link System#nanoTime()}
     * @param retainNanos how long an empty scope keeps its horizon
     */
    synchronized boolean idle(long wallNow, long monoNow, long retainNanos) {
        expire(wallNow, monoNow);
        return held.isEmpty() && monoNow - quietSince >= retainNanos;
    }

    /** {@return nonces held now} */
    synchronized int size() {
        return held.size();
    }
}
