package io.rdma.srq.ra.bench;

import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.support.admission.AuthKey;
import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One connect flood against a running activation that asks for a token (authKey), in three phases
 * of the {@link LegitimatePeer}, which starts a connect every {@code legitPeriod}:
 * <ol>
 *   <li>baseline: {@code warmupConnects} connects alone;</li>
 *   <li>flood: {@code threadsPerKind} threads of each {@link Flooder.Kind} make {@code perKind}
 *       requests of that kind in all; the flood ends when the last of them has been answered;</li>
 *   <li>recovery: the peer keeps connecting until every connection accepted half-open has been reaped
 *       ({@code halfOpenReaped()}, looked at before each of its connects), at most {@code patience}.</li>
 * </ol>
 * Then the peer stops and it waits, at most {@code patience} again, until every slot is back — no
 * connection on the SRQ ({@code connections()}) and none leaving ({@code leavingConnections()}: a
 * maxConnections slot comes back with its QP's destroy) — and every message the peer's SENDs had
 * acknowledged was delivered. Nothing here is judged against a goal: {@link Result} holds the
 * figures, {@link ConnectFloodBenchmark} prints them.
 */
final class ConnectFlood {
    /**
     * What to run.
     *
     * @param perKind               flood requests of each kind, ≥ 1
     * @param threadsPerKind        threads each kind's requests are split over, ≥ 1
     * @param warmupConnects        the peer's connects before the flood, ≥ 1 (the first token to replay)
     * @param legitPeriod           the peer starts a connect this often (later when one takes longer)
     * @param messagesPerConnection SENDs on each of the peer's connections
     * @param patience              how long to wait for the reaping, and then for the slots and the messages
     */
    record Plan(int perKind, int threadsPerKind, int warmupConnects, Duration legitPeriod, int messagesPerConnection,
                Duration patience) {
        Plan {
            if (perKind < 1 || threadsPerKind < 1 || warmupConnects < 1) {
                throw new IllegalArgumentException("perKind, threadsPerKind and warmupConnects must be ≥ 1, got "
                        + perKind + ", " + threadsPerKind + ", " + warmupConnects);
            }
        }
    }

    /**
     * The legitimate peer's connects in one phase.
     *
     * @param latency  latency (ns) of its accepted connects
     * @param outcomes how its connects ended
     */
    record Phase(Histogram latency, ConnectOutcomes outcomes) {
        Phase() {
            this(new Histogram(3), new ConnectOutcomes());
        }
    }

    /**
     * What one flood showed. Times are ns from the flood's end (the answer to its last request).
     *
     * @param baseline          the peer's connects before the flood
     * @param flood             its connects during the flood
     * @param recovery          its connects after the flood until every half-open connection was reaped
     * @param flooded           how the flood requests ended, by kind
     * @param floodNanos        from the first flood request to the answer of the last
     * @param acknowledged      the peer's SENDs acknowledged (send completion SUCCESS)
     * @param sendErrors        the peer's SENDs completed with an error
     * @param delivered         messages the activation delivered meanwhile (only the peer sends)
     * @param slotsInUseMax     the most slots in use seen (connections + leaving, looked at after each of the
     *                          peer's connects during the flood)
     * @param atFloodEnd        the activation's statistics at the flood's end
     * @param atEnd             its statistics when every slot was back, or when the patience ran out
     * @param lastHalfOpenAccept when the last half-open request was accepted (≤ 0), or Long.MIN_VALUE
     * @param halfOpenReapedAt  when the peer saw every half-open connection reaped; -1 if not within the patience
     * @param slotsBackAt       when every slot was back (after the peer stopped); -1 if not within the patience
     */
    record Result(Phase baseline, Phase flood, Phase recovery, Map<Flooder.Kind, ConnectOutcomes> flooded,
                  long floodNanos, long acknowledged, long sendErrors, long delivered, int slotsInUseMax,
                  ActivationStatistics atFloodEnd, ActivationStatistics atEnd, long lastHalfOpenAccept,
                  long halfOpenReapedAt, long slotsBackAt) {
        /** {@return every flood request, of all kinds} */
        long floodRequests() {
            return flooded.values().stream().mapToLong(ConnectOutcomes::total).sum();
        }

        /** {@return every connect of the legitimate peer, in all phases} */
        ConnectOutcomes legitimate() {
            ConnectOutcomes all = new ConnectOutcomes();
            all.add(baseline.outcomes());
            all.add(flood.outcomes());
            all.add(recovery.outcomes());
            return all;
        }
    }

    private ConnectFlood() {
    }

    /**
     * {@return slots of maxConnections in use now: connections on the SRQ and connections leaving}
     *
     * @param s the activation's statistics
     */
    static int slotsInUse(ActivationStatistics s) {
        return s.connections() + s.leavingConnections();
    }

    /**
     * Runs one flood.
     *
     * @param a    the activation, listening, with authKey naming {@code key}
     * @param key  the key the peer's and the half-open flooders' tokens are made with
     * @param plan what to run
     * @return the figures
     * @throws Exception a verbs error of the peer's own objects, or a flooder's
     */
    static Result run(SrqActivation a, AuthKey key, Plan plan) throws Exception {
        ActivationStatistics before = a.statistics();
        Phase baseline = new Phase();
        Phase flood = new Phase();
        Phase recovery = new Phase();
        long period = plan.legitPeriod().toNanos();
        try (LegitimatePeer peer = new LegitimatePeer(a.listenAddress(), key, plan.messagesPerConnection())) {
            long next = System.nanoTime();
            for (int i = 0; i < plan.warmupConnects(); i++) {
                next = paceTo(next, period);
                peer.connectOnce(baseline.latency(), baseline.outcomes());
            }
            AtomicLong lastAnswer = new AtomicLong(Long.MIN_VALUE);
            Map<Flooder.Kind, List<Future<ConnectOutcomes>>> running = new EnumMap<>(Flooder.Kind.class);
            ExecutorService pool = Executors.newFixedThreadPool(plan.threadsPerKind() * Flooder.Kind.values().length,
                    r -> new Thread(r, "flooder"));
            Map<Flooder.Kind, ConnectOutcomes> flooded = new EnumMap<>(Flooder.Kind.class);
            int slotsMax = 0;
            long floodStart = System.nanoTime();
            try {
                int seed = 0;
                for (Flooder.Kind kind : Flooder.Kind.values()) {
                    for (int t = 0; t < plan.threadsPerKind(); t++) {
                        Flooder f = new Flooder(kind, share(plan.perKind(), plan.threadsPerKind(), t), a.listenAddress(),
                                key, peer::lastUsedToken, seed++);
                        running.computeIfAbsent(kind, k -> new ArrayList<>()).add(pool.submit(() -> {
                            try {
                                return f.call();
                            } finally {
                                lastAnswer.accumulateAndGet(System.nanoTime(), Math::max);
                            }
                        }));
                    }
                }
                while (!running.values().stream().flatMap(List::stream).allMatch(Future::isDone)) {
                    next = paceTo(next, period);
                    peer.connectOnce(flood.latency(), flood.outcomes());
                    slotsMax = Math.max(slotsMax, slotsInUse(a.statistics()));
                }
                for (Map.Entry<Flooder.Kind, List<Future<ConnectOutcomes>>> e : running.entrySet()) {
                    ConnectOutcomes o = new ConnectOutcomes();
                    for (Future<ConnectOutcomes> f : e.getValue()) {
                        o.add(f.get());
                    }
                    flooded.put(e.getKey(), o);
                }
            } finally {
                pool.shutdownNow();
            }
            long floodEnd = lastAnswer.get();
            ActivationStatistics atFloodEnd = a.statistics();
            long halfOpen = flooded.get(Flooder.Kind.HALF_OPEN).of(ConnectOutcomes.ACCEPTED);
            long halfOpenReapedAt = -1;
            long deadline = System.nanoTime() + plan.patience().toNanos();
            while (System.nanoTime() - deadline < 0) {
                if (a.statistics().halfOpenReaped() - before.halfOpenReaped() >= halfOpen) {
                    halfOpenReapedAt = System.nanoTime() - floodEnd;
                    break;
                }
                next = paceTo(next, period);
                peer.connectOnce(recovery.latency(), recovery.outcomes());
            }
            long slotsBackAt = -1;
            ActivationStatistics now = a.statistics();
            deadline = System.nanoTime() + plan.patience().toNanos();
            while (System.nanoTime() - deadline < 0) {
                now = a.statistics();
                if (slotsBackAt < 0 && slotsInUse(now) == 0) {
                    slotsBackAt = System.nanoTime() - floodEnd;
                }
                if (slotsBackAt >= 0 && now.delivered() - before.delivered() >= peer.acknowledged()) {
                    break;
                }
                LockSupport.parkNanos(1_000_000);
            }
            long lastAccept = flooded.get(Flooder.Kind.HALF_OPEN).lastAccepted();
            return new Result(baseline, flood, recovery, flooded, floodEnd - floodStart, peer.acknowledged(),
                    peer.sendErrors(), now.delivered() - before.delivered(), slotsMax, atFloodEnd, now,
                    lastAccept == Long.MIN_VALUE ? Long.MIN_VALUE : lastAccept - floodEnd, halfOpenReapedAt, slotsBackAt);
        }
    }

    /** {@return thread {@code t}'s share of {@code n} requests over {@code threads} threads} */
    private static int share(int n, int threads, int t) {
        return n / threads + (t < n % threads ? 1 : 0);
    }

    /** Waits until {@code next} (System.nanoTime); {@return the time of the connect after, one period on, never in the past} */
    private static long paceTo(long next, long period) {
        long wait;
        while ((wait = next - System.nanoTime()) > 0) {
            LockSupport.parkNanos(wait);
        }
        return Math.max(next, System.nanoTime()) + period;
    }
}
