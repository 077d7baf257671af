package io.rdma.srq.it.mdb;

import io.rdma.srq.api.ReceiveCompletion;

import java.io.Serializable;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one MDB received: how often each sequence number (imm_data) arrived, and anything malformed.
 * Static, so per test application (each deployment has its own class loader).
 */
public final class Tally {
    /** Largest sequence number a test may send, exclusive. */
    public static final int CAPACITY = 1 << 17;
    private static final Map<String, Tally> TALLIES = new ConcurrentHashMap<>();

    private final AtomicIntegerArray seen = new AtomicIntegerArray(CAPACITY);
    private final AtomicLong total = new AtomicLong();
    private final Set<Integer> qps = ConcurrentHashMap.newKeySet();
    private final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();

    /** @param name the MDB's name @return its tally */
    public static Tally of(String name) {
        return TALLIES.computeIfAbsent(name, n -> new Tally());
    }

    /** Forgets every tally. */
    public static void reset() {
        TALLIES.clear();
    }

    /**
     * @param c      the completion being delivered
     * @param marker the stream marker the MDB expects
     */
    public void record(ReceiveCompletion c, byte marker) {
        String problem = Messages.check(c, marker);
        if (problem != null) {
            problems.add(problem);
        }
        int seq = c.immData();
        if (seq >= 0 && seq < CAPACITY) {
            seen.incrementAndGet(seq);
        } else {
            problems.add("sequence number " + seq + " out of range");
        }
        qps.add(c.qpNum());
        total.incrementAndGet();
    }

    /** @param seq a sequence number, 0..CAPACITY-1 @return how often it arrived */
    public int count(int seq) {
        return seen.get(seq);
    }

    /** @return messages delivered */
    public long total() {
        return total.get();
    }

    /**
     * Waits until {@code expected} messages arrived, then a little longer so that a duplicate would show.
     *
     * @param expected messages
     * @param timeout  the longest wait
     * @return the summary
     * @throws InterruptedException if interrupted
     */
    public Summary await(int expected, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (total.get() < expected && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        Thread.sleep(100);
        return summary(expected);
    }

    /**
     * @param expected messages 0..expected-1 should each have arrived once
     * @return the summary
     */
    public Summary summary(int expected) {
        int missing = 0;
        int duplicated = 0;
        int firstMissing = -1;
        int firstDuplicate = -1;
        for (int i = 0; i < CAPACITY; i++) {
            int n = seen.get(i);
            if (i < expected && n == 0) {
                missing++;
                firstMissing = firstMissing < 0 ? i : firstMissing;
            } else if (n > 1 || (i >= expected && n > 0)) {
                duplicated++;
                firstDuplicate = firstDuplicate < 0 ? i : firstDuplicate;
            }
        }
        return new Summary(total.get(), missing, firstMissing, duplicated, firstDuplicate, qps.size(),
                String.valueOf(problems.peek()), problems.size());
    }

    /**
     * @param total          messages delivered
     * @param missing        sequence numbers below expected that never arrived
     * @param firstMissing   the first of them, or -1
     * @param duplicated     sequence numbers that arrived more than once (or were never sent)
     * @param firstDuplicate the first of them, or -1
     * @param connections    distinct QPs (connections) the messages arrived on
     * @param firstProblem   the first malformed message, or "null"
     * @param problems       malformed messages
     */
    public record Summary(long total, int missing, int firstMissing, int duplicated, int firstDuplicate,
                          int connections, String firstProblem, int problems) implements Serializable {
    }
}
