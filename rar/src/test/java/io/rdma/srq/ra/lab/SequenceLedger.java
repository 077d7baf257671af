package io.rdma.srq.ra.lab;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the receiver got of the two-host senders' numbered messages, and what each sender was told:
 * the reconciliation of a fault test. A message is 64 bytes, big-endian: the magic {@code SEQ1}
 * (0x53455131), the sender id (int), the sequence number (long) — what {@code seq_send} and
 * {@link TwoHostPeerSender} send.
 */
final class SequenceLedger {
    static final int MAGIC = 0x53455131;
    private static final Pattern CONN = Pattern.compile("^CONN (\\d+) first=(\\d+)$", Pattern.MULTILINE);
    private static final Pattern ACKED = Pattern.compile("^ACKED (\\d+) upto=(\\d+)$", Pattern.MULTILINE);

    private final Map<Long, Long> firstSeenNanos = new ConcurrentHashMap<>(); // (id << 40 | seq) -> when
    private final AtomicLong deliveries = new AtomicLong();
    private final AtomicLong foreign = new AtomicLong();
    private final AtomicLong lastNanos = new AtomicLong();

    /** Records one delivered message (called on the delivery thread). */
    void record(ByteBuffer payload) {
        long now = System.nanoTime();
        deliveries.incrementAndGet();
        lastNanos.accumulateAndGet(now, Math::max);
        if (payload.remaining() < 16 || payload.getInt(payload.position()) != MAGIC) {
            foreign.incrementAndGet();
            return;
        }
        long id = payload.getInt(payload.position() + 4);
        long seq = payload.getLong(payload.position() + 8);
        firstSeenNanos.putIfAbsent(id << 40 | seq, now);
    }

    /** @return every delivery so far, duplicates included */
    long deliveries() {
        return deliveries.get();
    }

    /** @return deliveries of a (sender, sequence number) already delivered */
    long duplicates() {
        return deliveries.get() - foreign.get() - firstSeenNanos.size();
    }

    /** @return distinct messages of {@code sender} delivered */
    long delivered(int sender) {
        return firstSeenNanos.keySet().stream().filter(k -> k >>> 40 == sender).count();
    }

    /** @return the first delivery (System.nanoTime) of a message first seen after {@code nanos}, or -1 */
    long firstDeliveryAfter(long nanos) {
        return firstSeenNanos.values().stream().filter(t -> t > nanos).mapToLong(Long::longValue).min().orElse(-1);
    }

    /** @return System.nanoTime of the latest delivery */
    long lastDeliveryNanos() {
        return lastNanos.get();
    }

    /**
     * The messages a sender was told were acknowledged (successful send WCs), from its
     * {@code CONN c first=F} and {@code ACKED c upto=U} lines: per connection F .. max(U) − 1.
     */
    static List<long[]> acknowledged(String senderOutput) {
        Map<Long, Long> first = new HashMap<>();
        Map<Long, Long> upto = new HashMap<>();
        Matcher m = CONN.matcher(senderOutput);
        while (m.find()) {
            first.put(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
        }
        m = ACKED.matcher(senderOutput);
        while (m.find()) {
            upto.merge(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Math::max);
        }
        List<long[]> ranges = new ArrayList<>();
        first.forEach((c, f) -> ranges.add(new long[] {f, Math.max(f, upto.getOrDefault(c, f))}));
        return ranges;
    }

    /** @return how many of the acknowledged {@code ranges} of {@code sender} were not delivered */
    long acknowledgedNotDelivered(int sender, List<long[]> ranges) {
        Set<Long> seen = firstSeenNanos.keySet();
        long missing = 0;
        for (long[] r : ranges) {
            for (long s = r[0]; s < r[1]; s++) {
                if (!seen.contains((long) sender << 40 | s)) {
                    missing++;
                }
            }
        }
        return missing;
    }

    /** @return the number of messages in {@code ranges} */
    static long count(List<long[]> ranges) {
        return ranges.stream().mapToLong(r -> r[1] - r[0]).sum();
    }
}
