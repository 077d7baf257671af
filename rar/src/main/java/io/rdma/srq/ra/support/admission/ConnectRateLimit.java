package io.rdma.srq.ra.support.admission;

/**
 * A token bucket over connect requests: {@code perSecond} requests a second on average, bursts of up
 * to {@code perSecond} (at least 1). Requests beyond it are rejected before any token is checked, so
 * a flood costs the listener little. Thread-safe.
 */
public final class ConnectRateLimit {
    private final double perNano;
    private final double burst;
    private double tokens;
    private long last;

    /**
     * @param perSecond requests a second, ≥ 1
     * @param now       the current {@link System#nanoTime()}
     */
    public ConnectRateLimit(int perSecond, long now) {
        if (perSecond < 1) {
            throw new IllegalArgumentException("perSecond must be ≥ 1, got " + perSecond);
        }
        this.perNano = perSecond / 1e9;
        this.burst = perSecond;
        this.tokens = burst;
        this.last = now;
    }

    /**
     * {@return whether one more request is within the rate; takes its token if so}
     *
     * @param now the current {@link System#nanoTime()}
     */
    public synchronized boolean tryAcquire(long now) {
        tokens = Math.min(burst, tokens + Math.max(0, now - last) * perNano);
        last = now;
        if (tokens >= 1) {
            tokens -= 1;
            return true;
        }
        return false;
    }
}
