package io.rdma.srq.ra.inbound.lifecycle;

import io.rdma.srq.ra.support.LongRunningWork;

import jakarta.resource.ResourceException;

import java.io.Serial;
import java.time.Duration;

/**
 * The Work that brings an activation up when its device is missing at activation (STARTING) or was
 * lost (RECOVERING): first it ends the lost run (its natives freed, what it could not deliver counted
 * lost), then it tries to open a new run, waiting {@link Backoff#delay} between attempts, until one
 * opens, an attempt fails with an error that retrying cannot cure, or the activation is stopped.
 *
 * <p>One long-running Work (LONGRUNNING hint) rather than a short Work scheduled again per attempt:
 * it sleeps through the backoff (up to recoveryMaxDelay), which must not hold a thread of the
 * container's short-task pool, and a WorkManager has no delayed scheduling (a JCA timer would run
 * the open on the timer's own thread). It exists only while the activation is not ACTIVE; stopping
 * the activation ends it within {@value #SLICE_MS} ms, even mid-backoff.
 */
final class Recovery extends LongRunningWork {
    @Serial
    private static final long serialVersionUID = 1L;
    /** The longest the backoff sleeps before looking whether it was released. */
    static final long SLICE_MS = 10;

    /** What the activation does for the Work. */
    interface Steps {
        /** Ends the lost run, if any (bounded: the drain timeout and the deliveries' bound). */
        void endLostRun();

        /**
         * One attempt to open a run and make it the activation's.
         *
         * @param attempt 1 for the first
         * @throws ResourceException what opening failed with
         */
        void open(int attempt) throws ResourceException;

        /**
         * An attempt failed.
         *
         * @param attempt the attempt's number
         * @param failure the failure
         * @param next    the wait before the next attempt
         * @return whether to try again (false: the failure will not go away, or the activation stopped)
         */
        boolean failed(int attempt, ResourceException failure, Duration next);
    }

    private final Backoff backoff;
    private final Steps steps;
    private final boolean firstAtOnce;

    /**
     * @param name        the thread's name while it runs, e.g. {@code srq-recovery-Orders}
     * @param backoff     the waits between attempts
     * @param steps       the activation's steps
     * @param firstAtOnce whether the first attempt runs at once (after a device loss) or after the
     *                    first delay (an attempt just failed at activation)
     */
    Recovery(String name, Backoff backoff, Steps steps, boolean firstAtOnce) {
        super(name);
        this.backoff = backoff;
        this.steps = steps;
        this.firstAtOnce = firstAtOnce;
    }

    @Override
    protected void loop() throws InterruptedException {
        steps.endLostRun();
        int attempt = firstAtOnce ? 0 : 1; // without: the activation's own attempt was the first
        if (!firstAtOnce && !pause(backoff.delay(1))) {
            return;
        }
        while (running()) {
            attempt++;
            try {
                steps.open(attempt);
                return;
            } catch (ResourceException e) {
                Duration next = backoff.delay(attempt);
                if (!steps.failed(attempt, e, next) || !pause(next)) {
                    return;
                }
            }
        }
    }

    /** @return false when released during the pause */
    private boolean pause(Duration wait) throws InterruptedException {
        long end = System.nanoTime() + wait.toNanos();
        while (running()) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                return true;
            }
            Thread.sleep(Math.min(SLICE_MS, Math.max(1, left / 1_000_000)));
        }
        return false;
    }
}
