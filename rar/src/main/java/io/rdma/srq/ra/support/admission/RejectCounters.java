package io.rdma.srq.ra.support.admission;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/** Rejected connect requests of one activation, by reason. Thread-safe. */
public final class RejectCounters {
    private final EnumMap<RejectReason, LongAdder> counts = new EnumMap<>(RejectReason.class);

    /** Every reason at 0. */
    public RejectCounters() {
        for (RejectReason r : RejectReason.values()) {
            counts.put(r, new LongAdder());
        }
    }

    /** @param reason one more reject for it */
    void increment(RejectReason reason) {
        counts.get(reason).increment();
    }

    /**
     * {@return rejects of that reason so far}
     *
     * @param reason the reason
     */
    public long count(RejectReason reason) {
        return counts.get(reason).sum();
    }

    /** {@return every reason's count by its name (e.g. {@code NO_TOKEN}), in the enum's order, zeros included} */
    public Map<String, Long> snapshot() {
        Map<String, Long> m = new LinkedHashMap<>();
        counts.forEach((r, n) -> m.put(r.name(), n.sum()));
        return m;
    }
}
