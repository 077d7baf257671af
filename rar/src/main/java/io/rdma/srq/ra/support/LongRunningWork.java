package io.rdma.srq.ra.support;

import jakarta.resource.spi.work.HintsContext;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkContext;
import jakarta.resource.spi.work.WorkContextProvider;
import io.rdma.srq.ra.support.RaLogger;

import java.io.Serial;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A loop that runs for the activation's life as one Work, marked with the LONGRUNNING hint so the
 * container gives it a thread of its own rather than one of its short-task pool (JCA 2.1 §11.6),
 * named {@code name} while it runs. {@link #release()} (the container's, or deactivation's) asks
 * the loop to end; {@link #awaitEnd} waits for that, bounded. A loop that fails while running — an
 * exception before its release, or any Error — is logged (SRQRA0314), ends, and is reported to
 * {@link #whenFailed its owner} once it has ended (an Error is rethrown after that, for the
 * container); an interrupted one just ends (the interrupt is kept).
 */
public abstract class LongRunningWork implements Work, WorkContextProvider {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String name;
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile boolean running = true;
    /** Told once the loop has ended on a failure; null: nobody. */
    private transient volatile Consumer<Throwable> owner;
    /** What ended the loop, if it failed. */
    private transient volatile Throwable failure;

    /** @param name the thread's name while the loop runs, e.g. {@code srq-poller-Orders} */
    public LongRunningWork(String name) {
        this.name = name;
    }

    /**
     * The loop: runs until {@link #running()} turns false (or it has a reason of its own to end).
     *
     * @throws Exception ends the loop; logged unless the loop was asked to end
     */
    protected abstract void loop() throws Exception;

    /** Runs once the loop has ended, or once it is known never to start; nothing by default. */
    protected void afterLoop() {
    }

    /**
     * @param owner told, on the loop's thread once it has ended, what made it fail (an exception
     *              before {@link #release()}, or an Error); not told when the loop ends normally,
     *              is released or interrupted
     */
    public final void whenFailed(Consumer<Throwable> owner) {
        this.owner = owner;
    }

    /** @return what ended the loop when it failed, else null (running, or ended normally) */
    protected final Throwable failure() {
        return failure;
    }

    /** @return whether the loop should go on (no {@link #release()} yet) */
    protected final boolean running() {
        return running;
    }

    @Override
    public final void run() {
        Thread t = Thread.currentThread();
        String old = t.getName();
        t.setName(name);
        Throwable failed = null;
        try {
            loop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            if (running) {
                failed = e;
            }
        } catch (Error e) {
            failed = e;
            throw e; // after the owner was told (finally): the container sees it too
        } finally {
            t.setName(old);
            if (failed != null) {
                RaLogger.LOG.loopFailed(failed, name); // logged here, where its loop is known
                failure = failed;
            }
            end();
            if (failed != null) {
                tellOwner(failed);
            }
        }
    }

    private void tellOwner(Throwable cause) {
        Consumer<Throwable> o = owner;
        if (o != null) {
            try {
                o.accept(cause);
            } catch (RuntimeException e) {
                cause.addSuppressed(e);
            }
        }
    }

    /** Asks the loop to end; does not wait. */
    @Override
    public final void release() {
        running = false;
    }

    /**
     * @param deadlineNanos {@link System#nanoTime()} by which to give up waiting
     * @return whether the loop has ended
     */
    public final boolean awaitEnd(long deadlineNanos) {
        try {
            return ended.await(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** @return whether the loop has ended (or will never start) */
    public final boolean hasEnded() {
        return ended.getCount() == 0;
    }

    /** The Work could not be scheduled: the loop counts as ended. */
    public final void notStarted() {
        running = false;
        end();
    }

    private void end() {
        ended.countDown();
        afterLoop();
    }

    @Override
    public final List<WorkContext> getWorkContexts() {
        HintsContext hints = new HintsContext();
        hints.setName(name);
        hints.setHint(HintsContext.LONGRUNNING_HINT, Boolean.TRUE);
        return List.of(hints);
    }

    @Override
    public String toString() {
        return name;
    }
}
