package io.rdma.srq.bench;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the senders of one throughput run report: messages sent (published in steps by {@link Sends})
 * and when the first of them began sending, after its connections were made (the run's figures are
 * timed from there: connection setup is not message throughput).
 */
public final class SendProgress {
    private final LongAdder sent = new LongAdder();
    private final AtomicLong firstSendNanos = new AtomicLong();

    /** @return messages sent so far (in steps of {@link Sends#REPORT_EVERY}) */
    public long sent() {
        return sent.sum();
    }

    /** @return System.nanoTime() when the first sender began sending; 0 before */
    public long firstSendNanos() {
        return firstSendNanos.get();
    }

    void add(long n) {
        sent.add(n);
    }

    void started() {
        firstSendNanos.compareAndSet(0, System.nanoTime());
    }
}
