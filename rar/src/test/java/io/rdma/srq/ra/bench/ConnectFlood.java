package io.rdma.srq.ra.bench;

import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.ra.inbound.SrqActivation;
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
 * One connect flood against a running activation that asks for a token (authKey): the
 * {@link LegitimatePeer} first connects {@code warmupConnects} times alone (the baseline), then
 * keeps connecting, one connect every {@code legitPeriod}, while {@code threadsPerKind} threads of
 * each {@link Flooder.Kind} make {@code perKind} requests of that kind in all. The flood ends when
 * the last flood request has been answered; the peer stops with it. Then it waits, at most
 * {@code patience}, until every slot is back — no connection on the SRQ ({@code connections()}) and
 * none leaving ({@code leavingConnections()}: a maxConnections slot comes back with its QP's
 * destroy) — and until every message the peer's SENDs had acknowledged was delivered. Nothing here
 * is timed against a goal: {@link Result} holds the figures, {@link ConnectFloodBenchmark} prints
 * them.
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
     * @param patience              how long to wait for the slots and the messages after the flood
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
     * What one flood showed.
     *
     * @param baseline         latency (ns) of the peer's accepted connects before the flood
     * @param baselineOutcomes how those connects ended
     * @param duringFlood      latency (ns) of the peer's accepted connects during the flood
     * @param floodOutcomes    how the peer's connects during the flood ended
     * @param flooded          how the flood requests ended, by kind
     * @param floodNanos       from the first flood request to the answer of the last
     * @param acknowledged     the peer's SENDs acknowledged (send completion SUCCESS)
     * @param sendErrors       the peer's SENDs completed with an error
     * @param delivered        messages the activation delivered meanwhile (only the peer sends)
     * @param slotsInUseMax    the most slots in use seen (connections + leaving, sampled at each of the peer's connects)
     * @param atFloodEnd       the activation's statistics when the last flood request was answered
     * @param atEnd            its statistics when every slot was back, or when the patience ran out
     * @param slotsBackNanos   from the flood's end until every slot was back; -1 if not within the patience
     */
    record Result(Histogram baseline, ConnectOutcomes baselineOutcomes, Histogram duringFlood,
                  ConnectOutcomes floodOutcomes, Map<Flooder.Kind, ConnectOutcomes> flooded, long floodNanos,
                  long acknowledged, long sendErrors, long delivered, int slotsInUseMax,
                  ActivationStatistics atFloodEnd, ActivationStatistics atEnd, long slotsBackNanos) {
        /** {@return every flood request, of all kinds} */
        long floodRequests() {
            return flooded.values().stream().mapToLong(ConnectOutcomes::total).sum();
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
        long deliveredBefore = a.statistics().delivered();
        Histogram baseline = new Histogram(3);
        Histogram duringFlood = new Histogram(3);
        ConnectOutcomes baselineOutcomes = new ConnectOutcomes();
        ConnectOutcomes floodOutcomes = new ConnectOutcomes();
        Map<Flooder.Kind, ConnectOutcomes> flooded = new EnumMap<>(Flooder.Kind.class);
        int slotsMax = 0;
        long period = plan.legitPeriod().toNanos();
        try (LegitimatePeer peer = new LegitimatePeer(a.listenAddress(), key, plan.messagesPerConnection())) {
            long next = System.nanoTime();
            for (int i = 0; i < plan.warmupConnects(); i++) {
                next = paceTo(next, period);
                peer.connectOnce(baseline, baselineOutcomes);
            }
            AtomicLong lastAnswer = new AtomicLong();
            List<Future<ConnectOutcomes>> flooders = new ArrayList<>();
            Map<Future<ConnectOutcomes>, Flooder.Kind> kinds = new java.util.HashMap<>();
            int threads = plan.threadsPerKind() * Flooder.Kind.values().length;
            ExecutorService pool = Executors.newFixedThreadPool(threads, r -> new Thread(r, "flooder"));
            long floodStart = System.nanoTime();
            try {
                int seed = 0;
                for (Flooder.Kind kind : Flooder.Kind.values()) {
                    for (int t = 0; t < plan.threadsPerKind(); t++) {
                        int n = share(plan.perKind(), plan.threadsPerKind(), t);
                        Flooder f = new Flooder(kind, n, a.listenAddress(), key, peer::lastUsedToken, seed++);
                        Future<ConnectOutcomes> future = pool.submit(() -> {
                            try {
                                return f.call();
                            } finally {
                                lastAnswer.accumulateAndGet(System.nanoTime(), Math::max);
                            }
                        });
                        flooders.add(future);
                        kinds.put(future, kind);
                    }
                }
                while (!flooders.stream().allMatch(Future::isDone)) {
                    next = paceTo(next, period);
                    peer.connectOnce(duringFlood, floodOutcomes);
                    slotsMax = Math.max(slotsMax, slotsInUse(a.statistics()));
                }
                for (Future<ConnectOutcomes> f : flooders) {
                    flooded.computeIfAbsent(kinds.get(f), k -> new ConnectOutcomes()).add(f.get());
                }
            } finally {
                pool.shutdownNow();
            }
            long floodEnd = lastAnswer.get();
            ActivationStatistics atFloodEnd = a.statistics();
            long deadline = System.nanoTime() + plan.patience().toNanos();
            long slotsBack = -1;
            ActivationStatistics now = a.statistics();
            while (System.nanoTime() - deadline < 0) {
                now = a.statistics();
                if (slotsBack < 0 && slotsInUse(now) == 0) {
                    slotsBack = System.nanoTime() - floodEnd;
                }
                if (slotsBack >= 0 && now.delivered() - deliveredBefore >= peer.acknowledged()) {
                    break;
                }
                LockSupport.parkNanos(1_000_000);
            }
            return new Result(baseline, baselineOutcomes, duringFlood, floodOutcomes, flooded, floodEnd - floodStart,
                    peer.acknowledged(), peer.sendErrors(), now.delivered() - deliveredBefore, slotsMax, atFloodEnd, now,
                    slotsBack);
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
