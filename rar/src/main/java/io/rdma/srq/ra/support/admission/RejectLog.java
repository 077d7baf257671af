package io.rdma.srq.ra.support.admission;

import io.rdma.srq.ra.support.RaLogger;

import java.net.InetSocketAddress;
import java.util.EnumMap;

/**
 * The WARN line of a reject, rate-limited so a flood cannot fill the log: per reason at most one line
 * per {@code intervalNanos}; the next line says how many of that reason went unlogged in between
 * (all are counted in {@link RejectCounters}). Thread-safe.
 */
final class RejectLog {
    private final String name;
    private final long intervalNanos;
    private final EnumMap<RejectReason, long[]> state = new EnumMap<>(RejectReason.class);

    /**
     * @param name          the activation's name
     * @param intervalNanos least time between two lines of one reason
     */
    RejectLog(String name, long intervalNanos) {
        this.name = name;
        this.intervalNanos = intervalNanos;
    }

    /**
     * @param peer   the request's source
     * @param reason why
     * @param now    {@link System#nanoTime()}
     * @return whether a line was written
     */
    synchronized boolean rejected(InetSocketAddress peer, RejectReason reason, long now) {
        long[] s = state.computeIfAbsent(reason, r -> new long[] {now - intervalNanos, 0}); // {last line, suppressed}
        if (now - s[0] < intervalNanos) {
            s[1]++;
            return false;
        }
        RaLogger.LOG.connectRejected(name, peer, reason, s[1], intervalNanos / 1_000_000_000L);
        s[0] = now;
        s[1] = 0;
        return true;
    }
}
