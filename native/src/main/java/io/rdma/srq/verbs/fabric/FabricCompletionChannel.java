package io.rdma.srq.verbs.fabric;

import io.rdma.srq.verbs.CompletionChannel;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.spi.EventQueue;
import io.rdma.srq.verbs.spi.ResourceBase;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

/**
 * ibv_get_cq_event(3) over libfabric CQs: a wait reads the armed CQs' members, pausing 1 µs
 * growing to {@link #MAX_PAUSE_NANOS} (50 µs) between rounds, and returns the first CQ that holds a
 * completion, disarmed. The
 * CQs are FI_WAIT_NONE (the tcp provider progresses only when read, FI_PROGRESS_MANUAL), so this
 * is the provider's event channel; a waiter that wants less latency spins on poll first, as the
 * adapter's pollers do.
 */
final class FabricCompletionChannel extends ResourceBase implements CompletionChannel {
    /**
     * The longest pause between two reads of the armed CQs, µs (system property
     * {@code io.rdma.srq.fabric.channelPauseMicros}, 1..1000, default 50): an event comes at most
     * this late; a waiting poller reads its CQs about 20,000 times a second at the default.
     */
    static final long MAX_PAUSE_NANOS = 1_000 * Math.clamp(Long.getLong("io.rdma.srq.fabric.channelPauseMicros", 50),
            1, 1_000);

    private final CopyOnWriteArrayList<FabricCompletionQueue> cqs = new CopyOnWriteArrayList<>();

    FabricCompletionChannel(FabricContext context) {
        super(context, "completion channel on " + context.deviceName(), "ibv_destroy_comp_channel");
    }

    void attach(FabricCompletionQueue cq) {
        cqs.add(cq);
    }

    void detach(FabricCompletionQueue cq) {
        cqs.remove(cq);
    }

    @Override
    public Optional<CompletionQueue> getCqEvent(Duration timeout) {
        ensureOpen();
        long deadline = System.nanoTime() + EventQueue.toNanos(timeout);
        long pause = 1_000;
        while (!isClosed()) {
            for (FabricCompletionQueue cq : cqs) {
                if (cq.takeArmed()) {
                    if (cq.ready()) {
                        return Optional.of(cq);
                    }
                    cq.rearm();
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || Thread.currentThread().isInterrupted()) {
                return Optional.empty();
            }
            LockSupport.parkNanos(Math.min(pause, left));
            pause = Math.min(pause * 2, MAX_PAUSE_NANOS);
        }
        return Optional.empty();
    }

    @Override
    protected void destroy() {
        cqs.clear();
    }
}
