package io.rdma.srq.verbs.soft;

import io.rdma.srq.verbs.spi.EventQueue;
import io.rdma.srq.verbs.CompletionChannel;
import io.rdma.srq.verbs.CompletionQueue;

import java.time.Duration;
import java.util.Optional;

/**
 * {@link CompletionChannel} of a soft device: a queue of CQ events. A CQ armed with
 * {@link CompletionQueue#requestNotify} queues one event here on its next (matching) completion.
 */
final class SoftCompletionChannel extends SoftResource implements CompletionChannel {
    private final SoftContext context;
    private final EventQueue<SoftCompletionQueue> events = new EventQueue<>();

    SoftCompletionChannel(SoftContext context) {
        super(context, "completion channel on " + context.deviceName(), "ibv_destroy_comp_channel");
        this.context = context;
    }

    SoftContext softContext() {
        return context;
    }

    /** Queues the event of an armed CQ that got a completion. */
    void signal(SoftCompletionQueue cq) {
        events.add(cq);
    }

    /**
     * ibv_get_cq_event(3) with a bounded wait; the event is acknowledged at once. Events of CQs closed
     * since are dropped.
     *
     * @param timeout the longest wait; zero or negative does not wait
     * @return the CQ, or empty on timeout, on close of the channel, or on interrupt (the interrupt
     *         status is kept)
     */
    @Override
    public Optional<CompletionQueue> getCqEvent(Duration timeout) {
        checkOpen();
        long deadline = System.nanoTime() + SoftContext.toNanos(timeout);
        while (true) {
            Optional<SoftCompletionQueue> cq = events.take(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            if (cq.isEmpty() || !cq.get().isClosed()) {
                return cq.map(CompletionQueue.class::cast);
            }
        }
    }

    @Override
    protected void release() {
        events.close();
    }
}
