package io.rdma.srq.ra.management;

import java.time.Duration;

/**
 * What management may do to one running activation (the {@code rdma-srq} subsystem's operations on
 * {@code activation=<srqName>}), and which endpoint it runs for.
 */
public interface ActivationControl {

    /** @return the message endpoint's class (the MDB class in WildFly) */
    Class<?> endpointClass();

    /**
     * Pauses delivery until {@link #resumeDelivery()}: completions wait in the CQ, the SRQ empties and
     * senders see RNR backpressure — nothing is lost. Survives a recovery's new run. Idempotent.
     *
     * @throws IllegalStateException once drained (or quiesced by a server suspend)
     */
    void pauseDelivery();

    /**
     * Ends a pause, after consecutive failures or by {@link #pauseDelivery()}; nothing when not paused.
     *
     * @throws IllegalStateException once drained (or quiesced by a server suspend)
     */
    void resumeDelivery();

    /**
     * Drains the activation for good: withdraws it (callers by name move on), stops arrivals (every
     * connection's QP to ERROR, so nothing more is acknowledged to a sender), delivers what the CQ
     * holds within {@code timeout} — paused or not — and counts the rest undelivered. Afterwards it is
     * {@code DRAINED} (not ready) and accepts and delivers nothing until the endpoint is activated again (WildFly: the MDB's
     * {@code stop-delivery} and {@code start-delivery}, or a redeploy). Blocks for up to about the
     * timeout; idempotent (a second drain delivers nothing).
     *
     * @param timeout how long delivery of what was already accepted may take, &gt; 0
     * @return what this drain delivered and what it left undelivered
     */
    Drained drain(Duration timeout);

    /**
     * @param delivered   messages delivered during the drain
     * @param undelivered messages accepted but left undelivered when the timeout passed
     */
    record Drained(long delivered, long undelivered) {
    }
}
