package io.rdma.srq.ra.testing;

import jakarta.resource.spi.work.ExecutionContext;
import jakarta.resource.spi.work.HintsContext;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkContextProvider;
import jakarta.resource.spi.work.WorkListener;
import jakarta.resource.spi.work.WorkManager;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A WorkManager on a cached thread pool; {@link #shutdown()} releases running work and waits. With
 * {@code shortWorkOnCaller}, a scheduled Work without the LONGRUNNING hint runs on the scheduling
 * thread (as a container may do when its pool is busy): benchmarks use it to keep the whole inbound
 * path on the poller's core.
 */
public final class TestWorkManager implements WorkManager {
    private final ExecutorService pool = Executors.newCachedThreadPool(Thread.ofPlatform().daemon().name("test-wm-", 0).factory());
    private final boolean shortWorkOnCaller;

    /** Every scheduled Work on the pool. */
    public TestWorkManager() {
        this(false);
    }

    /** @param shortWorkOnCaller run scheduled Works without the LONGRUNNING hint on the caller's thread */
    public TestWorkManager(boolean shortWorkOnCaller) {
        this.shortWorkOnCaller = shortWorkOnCaller;
    }

    private void schedule(Work work) {
        if (shortWorkOnCaller && !longRunning(work)) {
            work.run();
        } else {
            pool.execute(work);
        }
    }

    private static boolean longRunning(Work work) {
        return work instanceof WorkContextProvider p && p.getWorkContexts() != null && p.getWorkContexts().stream()
                .anyMatch(c -> c instanceof HintsContext h && Boolean.TRUE.equals(h.getHints().get(HintsContext.LONGRUNNING_HINT)));
    }

    @Override
    public void doWork(Work work) throws WorkException {
        work.run();
    }

    @Override
    public void doWork(Work work, long startTimeout, ExecutionContext ctx, WorkListener listener) throws WorkException {
        work.run();
    }

    @Override
    public long startWork(Work work) throws WorkException {
        scheduleWork(work);
        return 0;
    }

    @Override
    public long startWork(Work work, long startTimeout, ExecutionContext ctx, WorkListener listener) throws WorkException {
        scheduleWork(work);
        return 0;
    }

    @Override
    public void scheduleWork(Work work) throws WorkException {
        schedule(work);
    }

    @Override
    public void scheduleWork(Work work, long startTimeout, ExecutionContext ctx, WorkListener listener) throws WorkException {
        schedule(work);
    }

    /** Stops accepting work and waits up to 5 s for running work. */
    public void shutdown() throws InterruptedException {
        pool.shutdown();
        pool.awaitTermination(5, TimeUnit.SECONDS);
    }
}
