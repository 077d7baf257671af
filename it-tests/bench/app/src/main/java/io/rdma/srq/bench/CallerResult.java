package io.rdma.srq.bench;

import org.HdrHistogram.Histogram;

/**
 * One caller thread's timed phase.
 *
 * @param histogram  round trips, ns
 * @param startNanos System.nanoTime() before the first timed call
 * @param endNanos   after the last
 */
public record CallerResult(Histogram histogram, long startNanos, long endNanos) {
}
