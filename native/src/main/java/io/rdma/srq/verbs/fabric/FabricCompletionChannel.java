package io.rdma.srq.verbs.fabric;

import io.rdma.srq.verbs.CompletionChannel;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.ffi.fabric.Fabric;
import io.rdma.srq.verbs.ffi.fabric.fi_wait_attr;
import io.rdma.srq.verbs.spi.EventQueue;
import io.rdma.srq.verbs.spi.ResourceBase;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

/**
 * ibv_get_cq_event(3) over libfabric CQs: a wait reads the armed CQs' members and returns the
 * first CQ that holds a completion, disarmed; between rounds it sleeps in fi_wait(3) on a wait set
 * (FI_WAIT_FD) that every member CQ of its CQs is bound to, which wakes when an endpoint has data —
 * or, where the provider opens no wait set, pauses 1 µs growing to {@link #MAX_PAUSE_NANOS} (50 µs). The
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

    /** The longest single fi_wait(3), ms: a close of the channel waits at most this long for a waiter. */
    private static final int WAIT_SLICE_MILLIS = 10;

    private final CopyOnWriteArrayList<FabricCompletionQueue> cqs = new CopyOnWriteArrayList<>();
    /** The wait set (FI_WAIT_FD) the CQs' members are bound to, or null where the provider has none. */
    private final MemorySegment waitSet;
    private final long rawWaitSet;

    FabricCompletionChannel(FabricContext context) {
        super(context, "completion channel on " + context.deviceName(), "ibv_destroy_comp_channel");
        long raw = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(fi_wait_attr.layout());
            fi_wait_attr.wait_obj(attr, Fabric.FI_WAIT_FD());
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            if (FabricOps.waitOpen(context.fabric(), attr, out) == 0) {
                raw = out.get(ValueLayout.ADDRESS, 0).address();
            }
        }
        rawWaitSet = raw;
        waitSet = raw == 0 ? null : MemorySegment.ofAddress(raw).reinterpret(scope(), null);
    }

    /** {@return the wait set the member CQs bind to (fi_cq_attr wait_obj FI_WAIT_SET), or null} */
    MemorySegment waitSet() {
        return waitSet;
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
            if (waitSet != null) {
                // sleeps in epoll until a member CQ's endpoint has data (libfabric's trywait first
                // makes sure none has events already); -FI_EAGAIN: one has, read it
                FabricOps.waitOn(waitSet, (int) Math.max(1, Math.min(WAIT_SLICE_MILLIS, left / 1_000_000)));
            } else {
                LockSupport.parkNanos(Math.min(pause, left));
                pause = Math.min(pause * 2, MAX_PAUSE_NANOS);
            }
        }
        return Optional.empty();
    }

    @Override
    protected void destroy() {
        cqs.clear();
        if (rawWaitSet != 0) {
            FabricOps.close(MemorySegment.ofAddress(rawWaitSet));
        }
    }
}
