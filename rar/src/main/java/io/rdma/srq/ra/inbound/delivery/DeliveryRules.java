package io.rdma.srq.ra.inbound.delivery;

import io.rdma.srq.ra.inbound.events.EventSink;

import io.rdma.srq.api.SrqDeadLetter;
import io.rdma.srq.ra.support.RaLogger;
import io.rdma.srq.ra.support.RateLimitedLog;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * What a failed delivery leads to, for one activation: how many attempts a message gets
 * (activation property maxDeliveryAttempts), how the adapter learns that a container transaction
 * rolled back, and where a message goes once every attempt failed (the {@link SrqDeadLetter} event).
 *
 * <p>Rollback: under container-managed transactions the container begins the transaction in
 * beforeDelivery and ends it in afterDelivery, on the delivering thread. Right after
 * beforeDelivery the adapter registers an interposed {@link Synchronization} on that transaction
 * (TransactionSynchronizationRegistry.registerInterposedSynchronization, from
 * BootstrapContext.getTransactionSynchronizationRegistry()); its afterCompletion reports
 * STATUS_ROLLEDBACK for setRollbackOnly, a system exception, or a failed commit. No XAResource is
 * given to createEndpoint: a resource the transaction manager cannot recover would turn every
 * one-resource transaction of the application into a two-phase commit. Cost per delivery: one
 * getTransactionStatus call without a transaction (NOT_SUPPORTED), plus one registration and one
 * callback object with one.
 *
 * @param name        the activation's SRQ name
 * @param maxAttempts delivery attempts per message, ≥ 1 (1: no redelivery)
 * @param tsr         the container's registry, or null without one (no transaction is watched)
 * @param sink        where dead letters go
 * @param loader      the application's class loader, the context class loader of their observers
 * @param batchListener whether the endpoints implement {@link io.rdma.srq.api.SrqBatchListener}
 * @param maxBatchSize  messages per batch call, 1..{@value Poller#BATCH}
 * @param stopping      run when the endpoint refuses a delivery before it ran ({@link #refusedBeforeRun}):
 *                      the activation withdraws its service at once
 */
public record DeliveryRules(String name, int maxAttempts, TransactionSynchronizationRegistry tsr, EventSink sink,
                            ClassLoader loader, boolean batchListener, int maxBatchSize, Runnable stopping) {
    /** SRQRA0506 by activation name. */
    private static final RateLimitedLog<String> NOT_RUN_LINES = new RateLimitedLog<>();

    /** As the canonical constructor, with nothing to do when the endpoint is stopping. */
    public DeliveryRules(String name, int maxAttempts, TransactionSynchronizationRegistry tsr, EventSink sink,
                         ClassLoader loader, boolean batchListener, int maxBatchSize) {
        this(name, maxAttempts, tsr, sink, loader, batchListener, maxBatchSize, () -> { });
    }

    /**
     * Whether a delivery failed before the listener ran: the endpoint could not be had
     * ({@link jakarta.resource.spi.UnavailableException}) or the container refused the invocation
     * because the component is stopping (WildFly: {@code EJBComponentUnavailableException},
     * WFLYEJB0421 — at undeploy wildfly-ejb3 39's {@code EJBComponent.stop} refuses invocations before
     * {@code MessageDrivenComponent.done} deactivates the endpoint).
     *
     * @param failure a delivery's failure
     * @return true when nothing of the listener ran
     */
    public static boolean refusedBeforeRun(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof jakarta.resource.spi.UnavailableException
                    || t.getClass().getName().endsWith(".EJBComponentUnavailableException")) {
                return true;
            }
        }
        return false;
    }

    /**
     * A call refused before it ran was answered "not run" to its caller: logged (rate-limited) and
     * the activation told it is stopping.
     *
     * @param connectionId the call's connection
     * @param failure      the refusal
     */
    public void answeredNotRun(long connectionId, Throwable failure) {
        NOT_RUN_LINES.event(name, (notLogged, seconds) -> RaLogger.LOG.answeredNotRun(name, connectionId,
                String.valueOf(failure), notLogged, seconds));
        stopping.run();
    }
    /** SRQRA0308 and SRQRA0309 by activation name: a peer can send messages that all fail (counted as deadLettered). */
    private static final RateLimitedLog<String> DEAD_LETTER_LINES = new RateLimitedLog<>();
    private static final RateLimitedLog<String> OBSERVER_FAILURE_LINES = new RateLimitedLog<>();

    /**
     * Watches the transaction the container began on this thread in beforeDelivery, if any.
     *
     * @return the watcher, or null when there is no active transaction to watch
     */
    public Outcome watch() {
        if (tsr == null) {
            return null;
        }
        int status = tsr.getTransactionStatus();
        if (status == Status.STATUS_NO_TRANSACTION) {
            return null;
        }
        Outcome o = new Outcome();
        if (status == Status.STATUS_MARKED_ROLLBACK) {
            o.status = Status.STATUS_ROLLEDBACK;
            return o;
        }
        tsr.registerInterposedSynchronization(o);
        return o;
    }

    /** @param letter fired to the application's observers on this (the delivering) thread */
    public void deadLetter(SrqDeadLetter letter) {
        DEAD_LETTER_LINES.event(name, (notLogged, seconds) -> RaLogger.LOG.deadLettered(letter.lastFailure(), name,
                letter.connectionId(), letter.attempts(), notLogged, seconds));
        try {
            sink.fire(letter, loader);
        } catch (RuntimeException observerFailure) {
            OBSERVER_FAILURE_LINES.event(name, (notLogged, seconds) ->
                    RaLogger.LOG.deadLetterObserverFailed(observerFailure, name, notLogged, seconds));
        }
    }

    /** The end of one delivery's transaction, as the transaction manager reports it. */
    public static final class Outcome implements Synchronization {
        private volatile int status = Status.STATUS_UNKNOWN;

        @Override
        public void beforeCompletion() {
        }

        @Override
        public void afterCompletion(int status) {
            this.status = status;
        }

        /** @return whether the transaction ended rolled back (false while it has not ended) */
        public boolean rolledBack() {
            return status == Status.STATUS_ROLLEDBACK;
        }
    }
}
