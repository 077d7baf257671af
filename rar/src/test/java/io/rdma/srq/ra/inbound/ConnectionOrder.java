package io.rdma.srq.ra.inbound;

import io.rdma.srq.api.ReceiveCompletion;

import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongPredicate;

/**
 * What the deliveries of an ordering=connection activation saw, per connection: the sequence numbers
 * (a message's first 8 bytes) in delivery order, and any violation of the promise — a sequence out of
 * arrival order, or two deliveries of one connection at once. Thread-safe.
 */
final class ConnectionOrder {
    private final Map<Long, List<Long>> byConnection = new ConcurrentHashMap<>();
    private final Map<Long, AtomicInteger> inDelivery = new ConcurrentHashMap<>();
    /** What went against the promise (must stay empty). */
    final List<String> violations = new CopyOnWriteArrayList<>();
    private final AtomicInteger running = new AtomicInteger();
    /** Most deliveries running at once, over all connections. */
    final AtomicInteger maxRunning = new AtomicInteger();

    /** @return the message's sequence number (its first 8 bytes, native order) */
    static long seq(ReceiveCompletion c) {
        return c.payload().order(ByteOrder.nativeOrder()).getLong(0);
    }

    /** Records {@code c}, checking order and exclusivity per connection, and runs {@code work} meanwhile. */
    void record(ReceiveCompletion c, Runnable work) {
        long id = c.connectionId();
        long s = seq(c);
        AtomicInteger mine = inDelivery.computeIfAbsent(id, k -> new AtomicInteger());
        if (mine.incrementAndGet() != 1) {
            violations.add("two deliveries of connection " + id + " at once");
        }
        maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
        try {
            List<Long> seen = byConnection.computeIfAbsent(id, k -> new CopyOnWriteArrayList<>());
            if (!seen.isEmpty() && seen.getLast() + 1 != s) {
                violations.add("connection " + id + ": " + s + " after " + seen.getLast());
            }
            seen.add(s);
            work.run();
        } finally {
            running.decrementAndGet();
            mine.decrementAndGet();
        }
    }

    /** @return the sequences each connection's deliveries saw, in order, by connection id */
    Map<Long, List<Long>> byConnection() {
        return byConnection;
    }

    /** @return messages delivered of the connections whose first sequence matches {@code first} */
    long delivered(LongPredicate first) {
        return byConnection.values().stream().filter(l -> !l.isEmpty() && first.test(l.getFirst()))
                .mapToLong(List::size).sum();
    }
}
