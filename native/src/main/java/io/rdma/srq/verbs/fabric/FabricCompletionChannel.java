package io.rdma.srq.verbs.fabric;

import io.rdma.srq.verbs.CompletionChannel;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.ffi.fabric.Fabric;
import io.rdma.srq.verbs.ffi.fabric.fi_cq_attr;
import io.rdma.srq.verbs.ffi.fabric.fi_wait_attr;
import io.rdma.srq.verbs.spi.EventQueue;
import io.rdma.srq.verbs.spi.ResourceBase;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * ibv_get_cq_event(3) over libfabric CQs: a wait reads the armed CQs' members and returns the
 * first CQ that holds a completion, disarmed; between rounds it sleeps in fi_wait(3) on a wait set
 * (FI_WAIT_FD) that every member CQ of its CQs is bound to, which wakes when an endpoint has data —
 * or, where the provider opens no wait set, pauses 1 µs growing to {@link #MAX_PAUSE_NANOS} (50 µs). The
 * CQs are FI_WAIT_NONE (the tcp provider progresses only when read, FI_PROGRESS_MANUAL), so this
 * is the provider's event channel; a waiter that wants less latency spins on poll first, as the
 * adapter's pollers do.
 *
 * <p>A member CQ is opened and closed only while no thread is in fi_wait on the set
 * ({@link #changingMembers}): libfabric 1.17's ofi_cq_init (prov/util/src/util_cq.c) puts a new CQ
 * into the wait set's poll set before it allocates the CQ's queue, and fi_wait reads every CQ of
 * that poll set, so a wait beside an fi_cq_open read a NULL queue (SIGSEGV, seen here with 8
 * connects at once); its cleanup destroys the CQ's lock before taking it out. A change wakes the
 * waiter through a CQ of the channel's own bound to the set (fi_cq_signal), so it waits for the
 * current fi_wait to return, not for its slice to end. Quirk {@code cq-open-races-fi-wait}.
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
    /** A CQ of the channel's own bound to the wait set, never read: fi_cq_signal on it wakes fi_wait. */
    private final MemorySegment kicker;
    private final long rawKicker;
    /** Held around fi_wait and around a member CQ's open and close: they exclude each other. */
    private final ReentrantLock waitSetLock = new ReentrantLock();
    /** Member changes waiting for {@link #waitSetLock}: a waiter does not go back into fi_wait meanwhile. */
    private final AtomicInteger changes = new AtomicInteger();

    FabricCompletionChannel(FabricContext context) {
        super(context, "completion channel on " + context.deviceName(), "ibv_destroy_comp_channel");
        long raw = 0;
        long rawCq = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(fi_wait_attr.layout());
            fi_wait_attr.wait_obj(attr, Fabric.FI_WAIT_FD());
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            if (FabricOps.waitOpen(context.fabric(), attr, out) == 0) {
                raw = out.get(ValueLayout.ADDRESS, 0).address();
                MemorySegment cqAttr = arena.allocate(fi_cq_attr.layout());
                fi_cq_attr.format(cqAttr, Fabric.FI_CQ_FORMAT_CONTEXT());
                fi_cq_attr.size(cqAttr, 1);
                fi_cq_attr.wait_obj(cqAttr, Fabric.FI_WAIT_SET());
                fi_cq_attr.wait_set(cqAttr, out.get(ValueLayout.ADDRESS, 0));
                if (FabricOps.cqOpen(context.domain(), cqAttr, out, MemorySegment.NULL) == 0) {
                    rawCq = out.get(ValueLayout.ADDRESS, 0).address();
                } else { // no way to wake a waiter: no wait set, the pauses instead
                    FabricOps.close(MemorySegment.ofAddress(raw));
                    raw = 0;
                }
            }
        }
        rawWaitSet = raw;
        rawKicker = rawCq;
        waitSet = raw == 0 ? null : MemorySegment.ofAddress(raw).reinterpret(scope(), null);
        kicker = rawCq == 0 ? null : MemorySegment.ofAddress(rawCq).reinterpret(scope(), null);
    }

    /**
     * Runs {@code change} — fi_cq_open of a member CQ bound to the wait set, or its fi_close — while
     * no thread is in fi_wait on the set: wakes the waiter, then holds the set's lock.
     *
     * @param change the open or close
     * @param <T>    its result
     * @return what {@code change} returns
     */
    <T> T changingMembers(Supplier<T> change) {
        if (waitSet == null || isClosed()) { // closed: its scope is, so no thread is in fi_wait on it
            return change.get();
        }
        changes.incrementAndGet();
        try {
            FabricOps.cqSignal(kicker);
            waitSetLock.lock();
            try {
                return change.get();
            } finally {
                waitSetLock.unlock();
            }
        } finally {
            changes.decrementAndGet();
        }
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
            if (waitSet != null && changes.get() == 0 && waitSetLock.tryLock()) {
                try {
                    if (changes.get() == 0) {
                        // sleeps in epoll until a member CQ's endpoint has data (libfabric's trywait
                        // first makes sure none has events already); -FI_EAGAIN: one has, read it
                        FabricOps.waitOn(waitSet, (int) Math.max(1, Math.min(WAIT_SLICE_MILLIS, left / 1_000_000)));
                    }
                } finally {
                    waitSetLock.unlock();
                }
            } else { // no wait set, or a member is being opened or closed (or another waiter waits)
                LockSupport.parkNanos(Math.min(pause, left));
                pause = Math.min(pause * 2, MAX_PAUSE_NANOS);
            }
        }
        return Optional.empty();
    }

    @Override
    protected void destroy() {
        cqs.clear();
        if (rawKicker != 0) {
            FabricOps.close(MemorySegment.ofAddress(rawKicker));
        }
        if (rawWaitSet != 0) {
            FabricOps.close(MemorySegment.ofAddress(rawWaitSet));
        }
    }
}
