package io.rdma.srq.verbs.soft;

import org.junit.jupiter.api.Test;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The soft fabric's timer thread (RNR retries, deferred flushes) holds no deployment's class loader:
 * it ends once idle, and the one started again for a caller whose context class loader is a
 * deployment's runs with the verbs layer's own loader instead.
 */
class FabricTimerPinsNoLoaderTest {
    private static final long PATIENCE_MS = 10_000 + SoftFabric.Timer.IDLE_SECONDS * 1000;

    @Test
    void theTimerThreadEndsWhenIdleAndNeverTakesTheSchedulersContextClassLoader() throws Exception {
        Thread first = timerThread(); // whoever started the thread, it must end once idle
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PATIENCE_MS);
        while (first.isAlive()) {
            assertTrue(System.nanoTime() < deadline, "the idle timer thread ended");
            first.join(50);
        }

        ClassLoader deployment = new URLClassLoader("deployment", new URL[0], getClass().getClassLoader());
        CompletableFuture<ClassLoader> seen = new CompletableFuture<>();
        Thread scheduler = new Thread(() -> SoftFabric.schedule(
                () -> seen.complete(Thread.currentThread().getContextClassLoader()), 0));
        scheduler.setContextClassLoader(deployment);
        scheduler.start();
        scheduler.join();

        ClassLoader loader = seen.get(PATIENCE_MS, TimeUnit.MILLISECONDS);
        assertNotSame(deployment, loader, "the timer thread does not hold the scheduling deployment's loader");
        assertSame(SoftFabric.class.getClassLoader(), loader);
    }

    private static Thread timerThread() throws Exception {
        CompletableFuture<Thread> t = new CompletableFuture<>();
        SoftFabric.schedule(() -> t.complete(Thread.currentThread()), 0);
        return t.get(PATIENCE_MS, TimeUnit.MILLISECONDS);
    }
}
