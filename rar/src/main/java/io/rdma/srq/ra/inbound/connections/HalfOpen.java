package io.rdma.srq.ra.inbound.connections;

import io.rdma.srq.ra.support.RaLogger;
import io.rdma.srq.ra.support.RcConnection;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The accepted connections of an activation that are not yet ESTABLISHED (rdma_accept(3) sent the
 * REP, the peer's RTU has not come), each with its deadline: {@value #BOUND_SECONDS} s after the
 * accept. A live peer's RTU comes within a round trip, and a lost one is recovered when the CM resends
 * its REP after the request's cm_response_timeout (librdmacm's 20: 4.3 s), so the bound leaves room
 * for two such resends; the CM itself gives up (RDMA_CM_EVENT_UNREACHABLE) only after 15 of them,
 * about a minute, during which a peer that never completes would hold a QP, a send CQ and a slot of
 * maxConnections. Those that end half-open are counted ({@code halfOpenReaped}) and logged (WARN
 * SRQRA0210, at most one line every {@value #LOG_INTERVAL_SECONDS} s, with the number not logged).
 * Used by the control loop's thread; the count is read from any thread.
 */
public final class HalfOpen {
    static final long BOUND_SECONDS = 10;
    /** How long an accepted connection may wait for ESTABLISHED. */
    public static final Duration BOUND = Duration.ofSeconds(BOUND_SECONDS);
    static final long LOG_INTERVAL_SECONDS = 10;

    /**
     * One accepted connection waiting for ESTABLISHED.
     *
     * @param link     the connection
     * @param qpNum    its qp_num (readable after its close too)
     * @param peer     the request's source address
     * @param deadline {@link System#nanoTime()} at which it is reaped
     */
    record Waiting(RcConnection link, int qpNum, InetSocketAddress peer, long deadline) {
    }

    private final String name;
    private final long boundNanos;
    /** By qp_num, in accept order (so in deadline order). */
    private final Map<Integer, Waiting> waiting = new LinkedHashMap<>();
    private final LongAdder reaped = new LongAdder();
    private long lastLine;
    private long unlogged;

    /**
     * @param name  the activation's name, for the log
     * @param bound how long a connection may wait for ESTABLISHED ({@link #BOUND}; shorter in tests)
     */
    HalfOpen(String name, Duration bound) {
        this.name = name;
        this.boundNanos = bound.toNanos();
        this.lastLine = System.nanoTime() - LOG_INTERVAL_SECONDS * 1_000_000_000L;
    }

    /**
     * @param link an accepted connection, now waiting for ESTABLISHED
     * @param peer the request's source address
     * @param now  {@link System#nanoTime()}
     */
    void accepted(RcConnection link, InetSocketAddress peer, long now) {
        waiting.remove(link.qpNum()); // a later connection on the number goes to the end
        waiting.put(link.qpNum(), new Waiting(link, link.qpNum(), peer, now + boundNanos));
    }

    /**
     * @param qpNum the qp_num of a connection that became ESTABLISHED, or ended otherwise
     * @return the connection if it was waiting, else null
     */
    Waiting remove(int qpNum) {
        return waiting.remove(qpNum);
    }

    /**
     * @param now {@link System#nanoTime()}
     * @return the connections whose deadline passed, no longer waiting
     */
    List<Waiting> expired(long now) {
        List<Waiting> due = new ArrayList<>(0);
        for (Iterator<Waiting> it = waiting.values().iterator(); it.hasNext(); ) {
            Waiting w = it.next();
            if (now - w.deadline() < 0) {
                break;
            }
            due.add(w);
            it.remove();
        }
        return due;
    }

    /**
     * Counts and logs a reaped connection.
     *
     * @param w   the connection, closed by the caller
     * @param why what ended it (the event, or the bound)
     * @param now {@link System#nanoTime()}
     */
    void reaped(Waiting w, String why, long now) {
        reaped.increment();
        if (now - lastLine < LOG_INTERVAL_SECONDS * 1_000_000_000L) {
            unlogged++;
            return;
        }
        RaLogger.LOG.halfOpenReaped(name, w.peer(), w.qpNum(), why, unlogged, LOG_INTERVAL_SECONDS);
        lastLine = now;
        unlogged = 0;
    }

    /** @return connections reaped half-open so far */
    long reapedCount() {
        return reaped.sum();
    }

    /** @return connections waiting for ESTABLISHED now */
    int size() {
        return waiting.size();
    }
}
