package io.rdma.srq.it.mdb;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per stream, the longest pause between two deliveries and the wall clock (ms) it began: across a
 * suspend, that is when the stream's drain ended. Static, so per test application.
 */
public final class Pauses {
    private static final Map<String, long[]> TIMES = new ConcurrentHashMap<>();

    private Pauses() {
    }

    /** @param name the stream that just delivered a message */
    public static void delivered(String name) {
        long now = System.currentTimeMillis();
        long[] t = TIMES.computeIfAbsent(name, n -> new long[3]); // last, longest pause, its start
        synchronized (t) {
            if (t[0] != 0 && now - t[0] > t[1]) {
                t[1] = now - t[0];
                t[2] = t[0];
            }
            t[0] = now;
        }
    }

    /**
     * @param name a stream
     * @return {@code pauseFrom=… pauseMs=…}: when the longest pause between two deliveries began
     *         (wall clock, ms) and its length
     */
    public static String longest(String name) {
        long[] t = TIMES.getOrDefault(name, new long[3]);
        synchronized (t) {
            return "pauseFrom=" + t[2] + " pauseMs=" + t[1];
        }
    }

    /** Forgets every stream. */
    public static void reset() {
        TIMES.clear();
    }
}
