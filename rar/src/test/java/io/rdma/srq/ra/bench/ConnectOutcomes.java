package io.rdma.srq.ra.bench;

import io.rdma.srq.ra.support.admission.RejectReason;
import io.rdma.srq.verbs.ConnectRejectedException;

import java.util.Map;
import java.util.TreeMap;

/**
 * How connect requests ended, counted by outcome name: {@value #ACCEPTED}, a {@link RejectReason}
 * name (what the reject's private data says), {@value #NO_REASON} (a reject without one of ours: the
 * listener's backlog was full) or {@value #FAILED} (no answer within the connect's timeout, or
 * another verbs error). One thread's; {@link #add(ConnectOutcomes)} merges another's once it is done.
 */
final class ConnectOutcomes {
    /** The request was accepted. */
    static final String ACCEPTED = "ACCEPTED";
    /** A reject that carried no reason of ours. */
    static final String NO_REASON = "NO_REASON";
    /** Not answered in time, or another verbs error. */
    static final String FAILED = "FAILED";

    private final Map<String, Long> counts = new TreeMap<>();
    private long lastAccepted = Long.MIN_VALUE;

    /** @param outcome one request's outcome */
    void count(String outcome) {
        counts.merge(outcome, 1L, Long::sum);
    }

    /** @param at {@link System#nanoTime()} when a request was accepted: counted as {@value #ACCEPTED} */
    void accepted(long at) {
        count(ACCEPTED);
        lastAccepted = Math.max(lastAccepted, at);
    }

    /** {@return System.nanoTime of the last {@link #accepted(long)}, or Long.MIN_VALUE} */
    long lastAccepted() {
        return lastAccepted;
    }

    /** @param e a rejected connect: counted under the reason its private data names */
    void rejected(ConnectRejectedException e) {
        count(RejectReason.fromPrivateData(e.privateData()).map(Enum::name).orElse(NO_REASON));
    }

    /** @param other counts to add to these */
    void add(ConnectOutcomes other) {
        other.counts.forEach((k, v) -> counts.merge(k, v, Long::sum));
        lastAccepted = Math.max(lastAccepted, other.lastAccepted);
    }

    /** {@return requests of {@code outcome}, 0 if none} */
    long of(String outcome) {
        return counts.getOrDefault(outcome, 0L);
    }

    /** {@return every request counted} */
    long total() {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    /** {@return requests rejected by the activation with a reason of ours} */
    long rejectedWithReason() {
        return total() - of(ACCEPTED) - of(NO_REASON) - of(FAILED);
    }

    /** {@return the counts by outcome name, sorted; a copy} */
    Map<String, Long> counts() {
        return new TreeMap<>(counts);
    }

    @Override
    public String toString() {
        return counts.toString();
    }
}
