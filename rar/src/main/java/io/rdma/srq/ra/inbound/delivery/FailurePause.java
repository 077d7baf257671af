package io.rdma.srq.ra.inbound.delivery;

import io.rdma.srq.ra.support.RaLogger;

import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

/**
 * The pause after consecutive failures (activation property maxSequentialDeliveryFailures, IBM MQ's
 * resource adapter's name for it): after that many messages in a row were dead-lettered, the
 * poller stops taking completions — they wait in the CQ, the SRQ empties and senders see RNR
 * backpressure, nothing is lost — until {@link #resume()} (management) or pauseTimeout. A
 * successful delivery resets the count. 0 never pauses. Thread-safe.
 */
final class FailurePause {
    private final String name;
    private final int threshold;
    private final Duration timeout;
    private final LongAdder pauses = new LongAdder();
    // written under this; read without it on the success path
    private volatile int consecutive;
    private volatile long pausedUntil;
    private volatile boolean paused;

    /**
     * @param name      the activation's SRQ name, for the log
     * @param threshold consecutive dead-lettered messages that pause delivery, 0 for never
     * @param timeout   how long a pause lasts without {@link #resume()}; zero: until resumed
     */
    FailurePause(String name, int threshold, Duration timeout) {
        this.name = name;
        this.threshold = threshold;
        this.timeout = timeout;
    }

    /** A message was delivered successfully (delivery threads): the count starts again. */
    void succeeded() {
        if (threshold != 0 && consecutive != 0) {
            synchronized (this) {
                consecutive = 0;
            }
        }
    }

    /** A message was dead-lettered (delivery threads). */
    synchronized void deadLettered() {
        if (threshold == 0) {
            return;
        }
        consecutive++;
        if (consecutive >= threshold && !paused) {
            pausedUntil = timeout.isZero() ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
            paused = true;
            pauses.increment();
            RaLogger.LOG.deliveryPaused(name, consecutive, timeout.toMillis());
        }
    }

    /** @return whether delivery is paused now (a pause past its timeout ends here) */
    boolean paused() {
        if (paused && pausedUntil != Long.MAX_VALUE && System.nanoTime() - pausedUntil >= 0) {
            resume();
        }
        return paused;
    }

    /**
     * Pauses delivery until {@link #resume()}, whatever the failures (management's {@code pause}
     * operation): completions wait in the CQ as during a pause after failures. Not counted in
     * {@link #pauses()}, which counts pauses after failures. Idempotent.
     */
    synchronized void hold() {
        pausedUntil = Long.MAX_VALUE;
        if (!paused) {
            paused = true;
            RaLogger.LOG.deliveryHeld(name);
        }
    }

    /** Ends a pause (management, or the timeout); the count of consecutive failures starts again. */
    synchronized void resume() {
        if (paused) {
            paused = false;
            consecutive = 0;
            RaLogger.LOG.deliveryResumed(name);
        }
    }

    /** @return pauses since activation */
    long pauses() {
        return pauses.sum();
    }
}
