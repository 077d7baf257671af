package io.rdma.srq.ra.support;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Log lines that a peer, or a fault that repeats in a loop, can cause without bound, rate-limited:
 * per key at most one line every {@link #interval()} ({@link #INTERVAL} unless told); every event is
 * counted, whether its line is written or not, and the next line written is told how many of its key
 * were not. Keys come from a small fixed set (a reject reason, an activation's or an SRQ's name),
 * never from what a peer sends, so the state stays small. Time is {@link System#nanoTime()}.
 * Thread-safe; a line is written outside the lock.
 *
 * @param <K> the key: which lines are limited together
 */
public final class RateLimitedLog<K> {
    /** Least time between two lines of one key: 10 s. */
    public static final Duration INTERVAL = Duration.ofSeconds(10);

    private final long intervalNanos;
    private final LongSupplier nanoTime;
    /** By key: {time of the last line, events not logged since, events}. */
    private final Map<K, long[]> state = new HashMap<>();

    /** One line every {@link #INTERVAL} per key, on {@link System#nanoTime()}. */
    public RateLimitedLog() {
        this(INTERVAL, System::nanoTime);
    }

    /**
     * @param interval least time between two lines of one key, &gt; 0
     * @param nanoTime {@link System#nanoTime()} (a test clock in tests)
     */
    public RateLimitedLog(Duration interval, LongSupplier nanoTime) {
        this.intervalNanos = interval.toNanos();
        this.nanoTime = nanoTime;
    }

    /** A line that says how many lines of its kind were not written since the previous one. */
    @FunctionalInterface
    public interface Line {
        /**
         * Writes the line.
         *
         * @param notLogged events of its key whose line was not written since the previous line
         * @param intervalSeconds the least time between two lines, seconds
         */
        void write(long notLogged, long intervalSeconds);
    }

    /**
     * Counts one event of {@code key} and writes its line unless a line of that key was written less
     * than the interval ago.
     *
     * @param key  which lines are limited together
     * @param line the line
     * @return whether the line was written
     */
    public boolean event(K key, Line line) {
        long notLogged;
        synchronized (this) {
            long now = nanoTime.getAsLong();
            long[] s = state.computeIfAbsent(key, k -> new long[] {now - intervalNanos, 0, 0});
            s[2]++;
            if (now - s[0] < intervalNanos) {
                s[1]++;
                return false;
            }
            notLogged = s[1];
            s[0] = now;
            s[1] = 0;
        }
        line.write(notLogged, interval().toSeconds());
        return true;
    }

    /**
     * {@return events of {@code key} so far, logged or not}
     *
     * @param key the key
     */
    public synchronized long events(K key) {
        long[] s = state.get(key);
        return s == null ? 0 : s[2];
    }

    /** {@return the least time between two lines of one key} */
    public Duration interval() {
        return Duration.ofNanos(intervalNanos);
    }
}
