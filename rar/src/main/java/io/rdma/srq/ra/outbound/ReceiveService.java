package io.rdma.srq.ra.outbound;

import io.rdma.srq.ra.support.RaLogger;
import io.rdma.srq.ra.support.RateLimitedLog;
import io.rdma.srq.ra.support.SpinBudget;

import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The one servicing loop of a connection definition: a single thread for all its pooled
 * connections, busy or idle, that drains their SRQs' CQs (handing replies to their calls and
 * reposting the buffers) and reads their peers' rdma_cm events and the devices' async events
 * (limit events, device loss). No thread per pooled connection or peer.
 *
 * <p>The wait: a synchronous caller polls its own pooled connection while it spins
 * ({@link CallSpin}), so the loop need not; while a call waits that no thread polls
 * for (an asynchronous call, or a caller that spun and parked) the loop polls without pause if
 * {@link SpinBudget} gives it a slot, else with {@value #BACKOFF_MICROS} µs parks; otherwise it
 * parks {@value #IDLE_PARK_MICROS} µs between polls, so an idle pool costs a wake-up per
 * millisecond, keeps its SRQs full and still takes unsolicited messages; such a call wakes it
 * at once. Events are read every {@value #EVENT_PERIOD_MICROS} µs.
 *
 * <p>The thread is a daemon started with the first pooled connection that opens an SRQ and ended
 * with the last one's destroy; its context class loader is the adapter's, so it pins no
 * application. It is the adapter's own thread, not the container's WorkManager's.
 *
 * <p>Failures: an exception or a LinkageError in one connection's round is logged (SRQRA0104) and
 * the loop goes on. Any other Error there (OutOfMemoryError, StackOverflowError, …) may have stopped
 * the round half-way — completions taken and not handed on, buffers not reposted — so that
 * connection is also reported broken to the pool (CONNECTION_ERROR_OCCURRED: the pool destroys it and
 * makes a fresh one for the next user) and the loop goes on with the others. An Error that escapes
 * the loop itself ends its thread; the {@link SpinBudget} slot is given back and a new thread takes
 * over. No slot is ever kept by a thread that is gone.
 */
final class ReceiveService implements Runnable {
    static final long IDLE_PARK_MICROS = 1000;
    static final long EVENT_PERIOD_MICROS = 1000;
    /** The park between polls while a call waits but no spin slot is free, µs. */
    static final long BACKOFF_MICROS = 20;

    private final String name;
    private final Set<SrqManagedConnection> connections = new CopyOnWriteArraySet<>();
    private final AtomicInteger waiting = new AtomicInteger();
    /** SRQRA0104: a failure that repeats would log once per pass of the loop. */
    private final RateLimitedLog<String> failureLines = new RateLimitedLog<>();
    private volatile Thread thread;
    /** Whether the loop holds a {@link SpinBudget} slot; the loop's thread only. */
    private boolean spinning;

    /** @param name the thread's name */
    ReceiveService(String name) {
        this.name = name;
    }

    /** @param mc a pooled connection to service from now on */
    synchronized void register(SrqManagedConnection mc) {
        connections.add(mc);
        if (thread == null) {
            start();
        }
    }

    /** @param mc a pooled connection being destroyed (it skips servicing rounds from then on) */
    void unregister(SrqManagedConnection mc) {
        connections.remove(mc);
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** A call started waiting that no caller thread polls for: poll without pause. */
    void callStarted() {
        if (waiting.getAndIncrement() == 0) {
            Thread t = thread;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
    }

    /** Such a call ended (or its caller woke). */
    void callEnded() {
        waiting.decrementAndGet();
    }

    /** @return calls waiting that the loop polls for */
    int waiting() {
        return waiting.get();
    }

    /** @return whether the thread runs */
    boolean isRunning() {
        return thread != null;
    }

    @Override
    public void run() {
        boolean ended = false;
        try {
            serve();
            ended = true;
        } finally {
            stopSpinning(); // a slot is never kept by a thread that is gone
            if (!ended) {
                restart(); // an Error escaped the loop itself: the connections are serviced on
            }
        }
    }

    /** After the loop's thread died of a failure: a new thread takes over while connections remain. */
    private synchronized void restart() {
        thread = null;
        if (!connections.isEmpty()) {
            start();
        }
    }

    /** Starts the thread; under this monitor. */
    private void start() {
        Thread t = Thread.ofPlatform().daemon().name(name).unstarted(this);
        t.setContextClassLoader(ReceiveService.class.getClassLoader()); // the adapter's, never an application's
        thread = t;
        t.start();
    }

    /** The loop: returns once no connection is left. */
    private void serve() {
        long nextEvents = 0;
        while (true) {
            if (connections.isEmpty()) {
                synchronized (this) {
                    if (connections.isEmpty()) {
                        stopSpinning();
                        thread = null;
                        return;
                    }
                }
            }
            int n = 0;
            long now = System.nanoTime();
            boolean events = now - nextEvents >= 0;
            for (SrqManagedConnection mc : connections) {
                try {
                    n += mc.service(events);
                } catch (RuntimeException | LinkageError e) { // one connection's failure, even a class that failed to load, never stops the others'
                    failureLines.event(name, (notLogged, seconds) -> RaLogger.LOG.servicingFailed(e, mc, notLogged,
                            seconds));
                } catch (Error e) { // OutOfMemoryError, StackOverflowError, …: its round may have stopped half-way
                    failureLines.event(name, (notLogged, seconds) -> RaLogger.LOG.servicingFailed(e, mc, notLogged,
                            seconds));
                    mc.servicingFailed(e);
                }
            }
            if (events) {
                nextEvents = now + EVENT_PERIOD_MICROS * 1000;
            }
            if (n == 0) {
                pause();
            } else if (spinning && waiting.get() == 0) {
                stopSpinning();
            }
        }
    }

    /**
     * After an empty round: spins (holding a {@link SpinBudget} slot) while a call waits that no
     * caller polls for; without a slot it parks {@value #BACKOFF_MICROS} µs; with no such call it
     * parks {@value #IDLE_PARK_MICROS} µs.
     */
    private void pause() {
        if (waiting.get() == 0) {
            stopSpinning();
            LockSupport.parkNanos(this, IDLE_PARK_MICROS * 1000);
        } else if (spinning || (spinning = SpinBudget.PROCESS.tryEnter())) {
            Thread.onSpinWait();
        } else {
            LockSupport.parkNanos(this, BACKOFF_MICROS * 1000);
        }
    }

    private void stopSpinning() {
        if (spinning) {
            spinning = false;
            SpinBudget.PROCESS.exit();
        }
    }
}
