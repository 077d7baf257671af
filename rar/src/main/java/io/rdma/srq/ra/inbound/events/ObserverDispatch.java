package io.rdma.srq.ra.inbound.events;

import io.rdma.srq.api.SrqLimitReached;
import io.rdma.srq.ra.support.RaLogger;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkManager;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.LongAdder;

/**
 * Hands the activation's application events ({@link SrqLimitReached},
 * {@link io.rdma.srq.api.SrqDeviceStateChanged}) to their observers on a Work
 * of the container's WorkManager, never on the thread that raised them: a slow or blocking
 * synchronous observer ({@code @Observes}) then delays neither the control loop's accepts and
 * device events nor deactivation. One Work at a time delivers the queued events in order; at most
 * {@value #QUEUE} wait, and an event arriving at a full queue replaces the oldest waiting one
 * (counted in {@link #dropped()}, logged SRQRA0305): a limit event is a level report, the newest
 * says the most. Thread-safe; {@link #fire} never blocks.
 */
public final class ObserverDispatch {
    /** Events waiting for an observer thread at most. */
    static final int QUEUE = 16;

    private final String name;
    private final WorkManager workManager;
    private final EventSink sink;
    private final ClassLoader applicationLoader;
    private final ArrayDeque<Object> waiting = new ArrayDeque<>();
    private final LongAdder dropped = new LongAdder();
    // guarded by waiting
    private boolean scheduled;

    /**
     * @param name              the activation's SRQ name, for logs
     * @param workManager       runs the observers
     * @param sink              fires to the observers (CDI in a container)
     * @param applicationLoader thread context class loader while observers run
     */
    public ObserverDispatch(String name, WorkManager workManager, EventSink sink, ClassLoader applicationLoader) {
        this.name = name;
        this.workManager = workManager;
        this.sink = sink;
        this.applicationLoader = applicationLoader;
    }

    /** @param event queued for the observers; returns at once */
    public void fire(Object event) {
        synchronized (waiting) {
            if (waiting.size() >= QUEUE) {
                waiting.pollFirst();
                dropped.increment();
                RaLogger.LOG.observerEventDropped(name, QUEUE);
            }
            waiting.addLast(event);
            if (scheduled) {
                return;
            }
            scheduled = true;
        }
        try {
            workManager.scheduleWork(new Deliver());
        } catch (WorkException | RuntimeException e) {
            synchronized (waiting) {
                scheduled = false;
            }
            RaLogger.LOG.observerWorkRejected(e, name);
        }
    }

    /** @return events replaced at a full queue before an observer saw them */
    long dropped() {
        return dropped.sum();
    }

    /** Delivers what waits, then ends; a later event schedules a new one. */
    private final class Deliver implements Work {
        @Override
        public void run() {
            while (true) {
                Object event;
                synchronized (waiting) {
                    event = waiting.pollFirst();
                    if (event == null) {
                        scheduled = false;
                        return;
                    }
                }
                try {
                    sink.fire(event, applicationLoader);
                } catch (RuntimeException observerFailure) {
                    RaLogger.LOG.observerFailed(observerFailure, name);
                }
            }
        }

        @Override
        public void release() {
            // observers are the application's; they end when they return
        }
    }
}
