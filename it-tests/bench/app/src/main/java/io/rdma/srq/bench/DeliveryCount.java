package io.rdma.srq.bench;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Deliveries of one throughput case's sink MDB (one message at a time, or a batch): a count, and the System.nanoTime() of the first
 * delivery after {@link #arm} and of the delivery that reached the armed target (the run's last
 * message).
 */
public final class DeliveryCount {
    private final AtomicLong delivered = new AtomicLong();
    private volatile long armed;
    private volatile long first = Long.MAX_VALUE;
    private volatile long target = Long.MAX_VALUE;
    private volatile long firstNanos;
    private volatile long reachedNanos;

    /** One delivery; called by the sink MDB for every message. */
    public void delivered() {
        delivered(1);
    }

    /**
     * Deliveries of one call of a batch listener MDB.
     *
     * @param messages messages in the batch, ≥ 1
     */
    public void delivered(int messages) {
        long n = delivered.addAndGet(messages);
        long before = n - messages;
        if (before < first && first <= n) {
            firstNanos = System.nanoTime();
        }
        if (before < target && target <= n) {
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
        firstNanos = 0;
        long base = delivered.get();
        armed = more;
        first = base + 1;
        target = base + more;
        return base + more;
    }

    /** @return the deliveries the last {@link #arm} waits for */
    public long armed() {
        return armed;
    }

    /** @return System.nanoTime() of the first delivery after {@link #arm}, 0 before it */
    public long firstNanos() {
        return firstNanos;
    }

    /** @return System.nanoTime() of the armed target's delivery, 0 while not reached */
    public long reachedNanos() {
        return reachedNanos;
    }
}
