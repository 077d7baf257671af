package io.rdma.srq.verbs.fabric;

import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

/**
 * The progress a device makes by itself, for libfabric providers that progress only when their
 * CQs are read (FI_PROGRESS_MANUAL, tcp): one daemon thread per context reads every CQ that no
 * poller holds or read in the last millisecond into its ring, pausing 200 µs growing to 1 ms while
 * nothing comes (so it stays out of the way of pollers, which progress their CQs themselves). So
 * a peer's send completes (FI_DELIVERY_COMPLETE needs the receiver to read it) and a peer's
 * shutdown is seen even while the application polls nothing, as with a verbs device.
 */
final class FabricProgress implements Runnable {
    private static final long MIN_PAUSE_NANOS = 200_000;
    private static final long MAX_PAUSE_NANOS = 1_000_000;

    private final String name;
    private final CopyOnWriteArrayList<FabricCompletionQueue> cqs = new CopyOnWriteArrayList<>();
    private volatile boolean stopped;
    private Thread thread;

    FabricProgress(String name) {
        this.name = name;
    }

    synchronized void add(FabricCompletionQueue cq) {
        cqs.add(cq);
        if (thread == null && !stopped) {
            thread = Thread.ofPlatform().daemon().name("libfabric-progress-" + name).start(this);
        }
    }

    void remove(FabricCompletionQueue cq) {
        cqs.remove(cq);
    }

    @Override
    public void run() {
        long pause = MIN_PAUSE_NANOS;
        while (!stopped) {
            boolean any = false;
            for (FabricCompletionQueue cq : cqs) {
                any |= cq.tryProgress();
            }
            pause = any ? MIN_PAUSE_NANOS : Math.min(pause * 2, MAX_PAUSE_NANOS);
            LockSupport.parkNanos(pause);
        }
    }

    /** Stops the thread and waits for it (before the context's objects are freed). */
    void stop() {
        Thread t;
        synchronized (this) {
            stopped = true;
            t = thread;
        }
        if (t != null && t != Thread.currentThread()) {
            LockSupport.unpark(t);
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
