package io.rdma.srq.verbs.spi;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An event queue with a bounded wait: what an event fd plus poll(2) with a timeout gives a real
 * provider. A closed queue drops new events and wakes its waiters, which then get empty.
 *
 * @param <E> the event type
 */
public final class EventQueue<E> {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    private final ArrayDeque<E> events = new ArrayDeque<>();
    private boolean closed;

    /** An empty, open queue. */
    public EventQueue() {
    }

    /**
     * Queues an event and wakes the waiters.
     *
     * @param event queued unless the queue is closed
     */
    public void add(E event) {
        lock.lock();
        try {
            if (!closed) {
                events.add(event);
                arrived.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@return the oldest event, or empty on timeout, close or interrupt (the interrupt status is kept)}
     *
     * @param timeout the longest wait; zero or negative does not wait
     */
    public Optional<E> take(Duration timeout) {
        long nanos = toNanos(timeout);
        lock.lock();
        try {
            while (true) {
                E e = events.poll();
                if (e != null) {
                    return Optional.of(e);
                }
                if (nanos <= 0 || closed) {
                    return Optional.empty();
                }
                nanos = arrived.awaitNanos(nanos);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } finally {
            lock.unlock();
        }
    }

    /** Drops every event and wakes the waiters. */
    public void close() {
        lock.lock();
        try {
            closed = true;
            events.clear();
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@return a wait bound in nanoseconds: 0 for zero or negative, Long.MAX_VALUE for what overflows}
     *
     * @param timeout the bound
     */
    public static long toNanos(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            return 0;
        }
        try {
            return timeout.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
