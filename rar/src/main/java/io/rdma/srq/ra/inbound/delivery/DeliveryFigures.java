package io.rdma.srq.ra.inbound.delivery;

import java.util.concurrent.atomic.LongAdder;

/**
 * What the poller counts of the receive completions it takes and the batches that come back: the
 * figures {@code completed}, {@code error-completions}, {@code delivered}, {@code undelivered},
 * {@code endpoint-failures}, {@code redelivered} and {@code dead-lettered} of the activation's
 * statistics (docs/operating.md). Written by the poller's thread and by returning batches; read by
 * anyone. Thread-safe.
 */
public final class DeliveryFigures {
    private final LongAdder completed = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder delivered = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final LongAdder undelivered = new LongAdder();
    private final LongAdder redelivered = new LongAdder();
    private final LongAdder deadLettered = new LongAdder();

    /** @param n receive completions taken from the CQ (ibv_poll_cq(3)), success and error */
    void polled(int n) {
        completed.add(n);
    }

    /** One completion not delivered for its status, byte_len or wr_id ({@link CompletionCheck}). */
    void error() {
        errors.increment();
    }

    /** @param n successful completions that will never be delivered (drain timeout, loop ended) */
    void undelivered(long n) {
        undelivered.add(n);
    }

    /** @param batch a batch whose delivery ended: its delivered, skipped and failed messages */
    void returned(Delivery batch) {
        delivered.add(batch.count() - batch.skipped() - batch.notRun());
        if (batch.skipped() + batch.notRun() > 0) {
            undelivered.add(batch.skipped() + batch.notRun());
        }
        if (batch.failures() > 0) {
            failures.add(batch.failures());
            redelivered.add(batch.redelivered());
            deadLettered.add(batch.deadLettered());
        }
    }

    /** @return receive completions polled, success and error */
    public long completed() {
        return completed.sum();
    }

    /** @return completions with a status other than SUCCESS, or a wr_id or byte_len the SRQ cannot have produced */
    public long errors() {
        return errors.sum();
    }

    /** @return messages delivered (onReceive returned or threw) */
    public long delivered() {
        return delivered.sum();
    }

    /**
     * @return successful receive completions never delivered: left when the drain timeout passed, or
     *         calls the endpoint refused before they ran, answered "not run" to their callers
     */
    public long undelivered() {
        return undelivered.sum();
    }

    /** @return deliveries that failed (onReceive, beforeDelivery or afterDelivery threw) */
    public long failures() {
        return failures.sum();
    }

    /** @return delivery attempts after a failed one */
    public long redelivered() {
        return redelivered.sum();
    }

    /** @return messages whose every attempt failed */
    public long deadLettered() {
        return deadLettered.sum();
    }
}
