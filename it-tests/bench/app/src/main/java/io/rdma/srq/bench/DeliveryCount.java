package io.rdma.srq.bench;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Deliveries of one throughput case's sink MDB: a count, and the System.nanoTime() of the delivery
 * that reached the armed target (the run's last message).
 */
public final class DeliveryCount {
    private final AtomicLong delivered = new AtomicLong();
    private volatile long target = Long.MAX_VALUE;
    private volatile long reachedNanos;

    /** One delivery; called by the sink MDB for every message. */
    public void delivered() {
        if (delivered.incrementAndGet() == target) {
            reachedNanos = System.nanoTime();
        }
    }

    /** @return deliveries since deployment */
    public long count() {
        return delivered.get();
    }

    /**
     * Arms the target: {@link #reachedNanos()} becomes the time of the delivery numbered
     * {@code count() + more}.
     *
     * @param more deliveries to wait for, ≥ 1
     * @return the target count
     */
    public long arm(long more) {
        reachedNanos = 0;
        long t = delivered.get() + more;
        target = t;
        return t;
    }

    /** @return System.nanoTime() of the armed target's delivery, 0 while not reached */
    public long reachedNanos() {
        return reachedNanos;
    }
}
