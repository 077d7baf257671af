package io.rdma.srq.ra.bench;

import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.ra.SrqResourceAdapter;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.support.admission.AuthKey;
import io.rdma.srq.ra.testing.TestBootstrapContext;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import org.HdrHistogram.Histogram;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;

/**
 * The connect flood benchmark (not a test: nothing passes or fails on a figure; the goals are printed
 * beside): container-less on the soft device, one activation with {@code authKey} (a random key per
 * JVM), {@link ConnectFlood} against it once per {@code connectRateLimit} named in
 * {@code bench.rates}. Each run prints a markdown section to stdout: the legitimate peer's connect
 * latency before and during the flood (HdrHistogram, ms), how its connects ended (accepted or refused
 * by reason), its messages acknowledged and delivered, how the flood requests of each kind ended, the
 * slots in use (connections on the SRQ + leaving connections, against maxConnections) and the time
 * from the flood's end until every slot was back. Goals: the peer's connect p99 ≤ 10 ms during the
 * flood, every slot back within the half-open reaping bound (10 s). The flooders run in the same JVM
 * on the same cores as the activation (the soft device has no wire): their client side competes with
 * the control loop for CPU, which a flood from other hosts would not.
 *
 * <p>Run (from the repository root; the first command compiles api, native and rar and writes rar's
 * test class path, the second runs):
 * <pre>
 * mvn -B -o -q -pl api,native,rar test-compile dependency:build-classpath -Dmdep.includeScope=test \
 *     -Dmdep.outputFile=target/test-classpath.txt
 * java -cp rar/target/test-classes:rar/target/classes:$(cat rar/target/test-classpath.txt) \
 *     io.rdma.srq.ra.bench.ConnectFloodBenchmark
 * </pre>
 * System properties: {@code bench.rates} (connectRateLimit of each run, comma-separated:
 * {@code 1000,1000000}: the default and the maximum), {@code bench.maxConnections} (the activation's
 * maxConnections; unset: its default, 1024), {@code bench.maxConnectionsPerPeer} (unset: as
 * maxConnections; the flooders and the peer have different addresses), {@code bench.perKind} (10000), {@code bench.threadsPerKind}
 * (1), {@code bench.warmupConnects} (500), {@code bench.legitPeriodMs} (10),
 * {@code bench.messages} (SENDs per connection of the peer, 16), {@code bench.patienceSeconds} (60).
 */
public final class ConnectFloodBenchmark {
    private static final double GOAL_P99_MS = 10;
    /** HalfOpen.BOUND: an accepted connection is reaped when it is not ESTABLISHED within it. */
    private static final long BOUND_SECONDS = 10;

    private ConnectFloodBenchmark() {
    }

    /**
     * @param args unused (system properties configure it)
     * @throws Exception a set-up failure (exit code 1)
     */
    public static void main(String[] args) throws Exception {
        ConnectFlood.Plan plan = new ConnectFlood.Plan(Integer.getInteger("bench.perKind", 10_000),
                Integer.getInteger("bench.threadsPerKind", 1), Integer.getInteger("bench.warmupConnects", 500),
                Duration.ofMillis(Integer.getInteger("bench.legitPeriodMs", 10)), Integer.getInteger("bench.messages", 16),
                Duration.ofSeconds(Integer.getInteger("bench.patienceSeconds", 60)));
        String maxConnections = System.getProperty("bench.maxConnections");
        String maxConnectionsPerPeer = System.getProperty("bench.maxConnectionsPerPeer");
        byte[] key = new byte[AuthKey.MIN_BYTES];
        new SecureRandom().nextBytes(key);
        SrqResourceAdapter ra = new SrqResourceAdapter();
        ra.setAuthKeys("k1=" + Base64.getEncoder().encodeToString(key));
        TestBootstrapContext bootstrap = new TestBootstrapContext();
        ra.start(bootstrap);
        try {
            for (String rate : System.getProperty("bench.rates", "1000,1000000").split(",")) {
                TestEndpointFactory endpoints = new TestEndpointFactory();
                endpoints.recordPayloads(false);
                SrqActivationSpec spec = new SrqActivationSpec();
                spec.setProvider("soft");
                spec.setListenAddress("10.0.0.1");
                spec.setListenPort("0");
                spec.setAuthKey("k1");
                spec.setConnectRateLimit(rate.trim());
                if (maxConnections != null) {
                    spec.setMaxConnections(maxConnections);
                }
                if (maxConnectionsPerPeer != null) {
                    spec.setMaxConnectionsPerPeer(maxConnectionsPerPeer);
                }
                spec.setResourceAdapter(ra);
                ra.endpointActivation(endpoints, spec);
                try {
                    SrqActivation a = ra.activations().stream().filter(x -> x.factory() == endpoints).findFirst()
                            .orElseThrow();
                    String load = loadAverage();
                    Instant start = Instant.now();
                    ConnectFlood.Result r = ConnectFlood.run(a, new AuthKey("k1", key), plan);
                    print(plan, spec, r, start, load + " → " + loadAverage());
                } finally {
                    ra.endpointDeactivation(endpoints, spec);
                }
            }
        } finally {
            ra.stop();
            bootstrap.testWorkManager().shutdown();
        }
    }

    private static void print(ConnectFlood.Plan plan, SrqActivationSpec spec, ConnectFlood.Result r, Instant start,
                              String load) {
        line("### connectRateLimit %s/s, maxConnections %s, maxConnectionsPerPeer %s (%s; load average %s)",
                spec.getConnectRateLimit(), spec.getMaxConnections(), spec.getMaxConnectionsPerPeer().isEmpty()
                        ? "= maxConnections" : spec.getMaxConnectionsPerPeer(), start, load);
        line("");
        line("%d flood requests of each kind on %d thread(s) per kind from %s, answered in %.2f s (%.0f requests/s);"
                        + " the legitimate peer on %s starts a connect every %d ms and sends %d × %d B on each accepted one.",
                plan.perKind(), plan.threadsPerKind(), Flooder.DEVICE, r.floodNanos() / 1e9,
                r.floodRequests() / (r.floodNanos() / 1e9), LegitimatePeer.DEVICE, plan.legitPeriod().toMillis(),
                plan.messagesPerConnection(), LegitimatePeer.MESSAGE_BYTES);
        line("");
        line("| legitimate peer | connects | outcomes | p50 ms | p99 ms | max ms | goal |");
        line("|---|---:|---|---:|---:|---:|---|");
        latencyRow("alone, before the flood", r.baseline(), "—");
        Histogram during = r.flood().latency();
        latencyRow("during the flood", r.flood(), String.format(Locale.ROOT, "p99 ≤ %.0f ms: %s", GOAL_P99_MS,
                during.getTotalCount() == 0 ? "no connect got in" : ms(during, 99) <= GOAL_P99_MS ? "met" : "NOT met"));
        latencyRow("after the flood, until every half-open connection was reaped", r.recovery(), "—");
        line("");
        line("Messages of the legitimate peer: %d acknowledged, %d delivered, %d send errors.", r.acknowledged(),
                r.delivered(), r.sendErrors());
        line("");
        line("| flood kind | requests | outcomes |");
        line("|---|---:|---|");
        r.flooded().forEach((kind, o) -> line("| %s | %d | %s |", kind, o.total(), outcomes(o.counts())));
        line("");
        ActivationStatistics end = r.atFloodEnd();
        ActivationStatistics back = r.atEnd();
        line("Slots (maxConnections %s): at most %d in use during the flood (looked at after each of the peer's"
                        + " connects); at the flood's end %d connections + %d leaving. Times from the flood's end: last"
                        + " half-open accept %s; every half-open connection reaped %s (seen before the peer's connects,"
                        + " %d ms apart); every slot back %s (the peer stopped). Half-open connections reaped: %d; QPs"
                        + " destroyed after their completions were polled (closedConnections): %d.",
                spec.getMaxConnections(), r.slotsInUseMax(), end.connections(), end.leavingConnections(),
                r.lastHalfOpenAccept() == Long.MIN_VALUE ? "none" : seconds(r.lastHalfOpenAccept()),
                r.halfOpenReapedAt() < 0 ? "NOT within the patience" : seconds(r.halfOpenReapedAt()),
                plan.legitPeriod().toMillis(),
                r.slotsBackAt() < 0 ? "NOT within the patience (" + ConnectFlood.slotsInUse(back) + " still in use)"
                        : seconds(r.slotsBackAt()), back.halfOpenReaped(), back.closedConnections());
        line("");
        if (r.slotsBackAt() >= 0) {
            long fromAccept = r.slotsBackAt() - (r.lastHalfOpenAccept() == Long.MIN_VALUE ? 0 : r.lastHalfOpenAccept());
            line("Goal, every slot back within the reaping bound (%d s) of the last half-open accept: %s (%s after it).",
                    BOUND_SECONDS, fromAccept <= BOUND_SECONDS * 1_000_000_000L ? "met" : String.format(Locale.ROOT,
                            "NOT met, by %.0f ms", (fromAccept - BOUND_SECONDS * 1_000_000_000L) / 1e6),
                    seconds(fromAccept));
            line("");
        }
        line("The activation's rejects: %s.", outcomes(back.rejectedByReason()));
        line("");
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%+.3f s", nanos / 1e9);
    }

    private static void latencyRow(String phase, ConnectFlood.Phase p, String goal) {
        Histogram h = p.latency();
        ConnectOutcomes o = p.outcomes();
        line("| %s | %d | %s | %.2f | %.2f | %.2f | %s |", phase, o.total(), outcomes(o.counts()), ms(h, 50), ms(h, 99),
                h.getTotalCount() == 0 ? 0 : h.getMaxValue() / 1e6, goal);
    }

    private static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / 1e6;
    }

    /** {@return "NAME n, NAME n" of the non-zero counts} */
    private static String outcomes(Map<String, Long> counts) {
        StringBuilder b = new StringBuilder();
        counts.forEach((k, v) -> {
            if (v != 0) {
                b.append(b.isEmpty() ? "" : ", ").append(k).append(' ').append(v);
            }
        });
        return b.isEmpty() ? "none" : b.toString();
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (java.io.IOException e) {
            return "n/a";
        }
    }

    private static void line(String format, Object... args) {
        System.out.printf(Locale.ROOT, format + "%n", args);
        System.out.flush();
    }
}
