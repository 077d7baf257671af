package io.rdma.srq.ra.inbound.lifecycle;

import java.time.Duration;

/**
 * Exponential backoff between attempts to open an activation's device (activation properties
 * {@code recoveryInitialDelay}, {@code recoveryMaxDelay}): the first retry waits the initial delay,
 * each next one twice as long, never longer than the maximum. No jitter: activations of one device
 * retry independently, and a device that appears is opened within one maximum delay by each.
 *
 * @param initialDelay the wait before the first retry, 10 ms..60 s
 * @param maxDelay     the longest wait between retries, initialDelay..1 h
 */
public record Backoff(Duration initialDelay, Duration maxDelay) {

    /**
     * {@return the wait before retry number {@code attempt}: initialDelay × 2^(attempt − 1), at most maxDelay}
     *
     * @param attempt 1 for the first retry
     */
    public Duration delay(int attempt) {
        long initial = initialDelay.toMillis();
        int doublings = Math.min(Math.max(0, attempt - 1), 40);
        long ms = initial << doublings;
        return Duration.ofMillis(ms <= 0 || ms > maxDelay.toMillis() || ms >>> doublings != initial
                ? maxDelay.toMillis() : ms);
    }
}
