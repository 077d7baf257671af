package io.rdma.srq.ra.outbound;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

/**
 * The drain between moving peers' QPs to ERR and destroying them: polls the pooled CQs (as the
 * servicing round does, handing every message on) until none of those peers has had a message for
 * {@value #QUIET_MS} ms and the last poll found the CQs empty, at most {@value #BOUND_MS} ms. Why a
 * quiet period: completions of the last packets may be written after the QP entered ERR, and nothing
 * signals the last one on every device (driver note 18; IBV_EVENT_QP_LAST_WQE_REACHED is not raised
 * by rxe 6.1, driver note 8) — the same rule as an activation's drain.
 */
final class PeerDrain {
    /** How long the peers must have had no message, ms. */
    static final long QUIET_MS = 20;
    /** The longest a drain polls, ms: a CQ kept busy by other peers ends it too. */
    static final long BOUND_MS = 1_000;
    private static final long PAUSE_NANOS = 50_000;

    private PeerDrain() {
    }

    /**
     * @param links the peers whose QPs are in ERR
     * @param poll  one poll of every pooled CQ, delivering as usual; the caller holds the servicing lock
     * @return completions taken; 0 at once without peers (a pooled connection destroyed without any)
     */
    static int drain(List<PeerLink> links, IntSupplier poll) {
        if (links.isEmpty()) {
            return 0;
        }
        long start = System.nanoTime();
        long quietSince = start;
        long seen = arrivals(links);
        int taken = 0;
        while (true) {
            int n = poll.getAsInt();
            taken += n;
            long now = System.nanoTime();
            long a = arrivals(links);
            if (a != seen) {
                seen = a;
                quietSince = now;
            }
            if ((n == 0 && now - quietSince >= TimeUnit.MILLISECONDS.toNanos(QUIET_MS))
                    || now - start >= TimeUnit.MILLISECONDS.toNanos(BOUND_MS)) {
                return taken;
            }
            if (n == 0) {
                LockSupport.parkNanos(PAUSE_NANOS);
            }
        }
    }

    private static long arrivals(List<PeerLink> links) {
        long sum = 0;
        for (PeerLink l : links) {
            sum += l.arrivals();
        }
        return sum;
    }
}
