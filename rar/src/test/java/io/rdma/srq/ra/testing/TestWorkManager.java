package io.rdma.srq.ra.testing;

import jakarta.resource.spi.work.ExecutionContext;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkListener;
import jakarta.resource.spi.work.WorkManager;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** A WorkManager on a cached thread pool; {@link #shutdown()} releases running work and waits. */
public final class TestWorkManager implements WorkManager {
    private final ExecutorService pool = Executors.newCachedThreadPool(Thread.ofPlatform().daemon().name("test-wm-", 0).factory());

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
        pool.execute(work);
    }

    @Override
    public void scheduleWork(Work work, long startTimeout, ExecutionContext ctx, WorkListener listener) throws WorkException {
        pool.execute(work);
    }

    /** Stops accepting work and waits up to 5 s for running work. */
    public void shutdown() throws InterruptedException {
        pool.shutdown();
        pool.awaitTermination(5, TimeUnit.SECONDS);
    }
}
