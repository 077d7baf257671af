package io.rdma.srq.demo;

import io.rdma.srq.api.SrqLimitReached;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/** What the application saw since it was deployed: deliveries to the MDB and SRQ-limit events. */
@ApplicationScoped
public class DemoCounters {
    private final AtomicLong delivered = new AtomicLong();
    private final LongAdder bytes = new LongAdder();
    private final LongAdder limitEvents = new LongAdder();
    private final LongAdder limitEventsAsync = new LongAdder();
    private final AtomicReference<SrqLimitReached> lastLimitEvent = new AtomicReference<>();
    private volatile long lastDeliveryNanos;

    /** @param length bytes of the message delivered */
    public void delivered(int length) {
        bytes.add(length);
        lastDeliveryNanos = System.nanoTime();
        delivered.incrementAndGet();
    }

    /** @param event a limit event seen by the synchronous observer */
    public void limitEvent(SrqLimitReached event) {
        lastLimitEvent.set(event);
        limitEvents.increment();
    }

    /** @param event a limit event seen by the asynchronous observer */
    public void limitEventAsync(SrqLimitReached event) {
        limitEventsAsync.increment();
    }

    /** @return messages delivered to the MDB */
    public long delivered() {
        return delivered.get();
    }

    /** @return bytes delivered to the MDB */
    public long bytes() {
        return bytes.sum();
    }

    /** @return limit events seen by {@code @Observes} */
    public long limitEvents() {
        return limitEvents.sum();
    }

    /** @return limit events seen by {@code @ObservesAsync} */
    public long limitEventsAsync() {
        return limitEventsAsync.sum();
    }

    /** @return the last limit event, or null */
    public SrqLimitReached lastLimitEvent() {
        return lastLimitEvent.get();
    }

    /** @return System.nanoTime() of the last delivery */
    public long lastDeliveryNanos() {
        return lastDeliveryNanos;
    }
}
