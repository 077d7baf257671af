package io.rdma.srq.ra.bench;

import io.rdma.srq.api.SrqPeer;
import org.HdrHistogram.Histogram;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * The adapter's request/reply round trip in the lab (issue 25: against perftest's
 * {@code ib_send_lat} on rxe0): one caller thread's {@code SrqPeer.call} from a pooled connection
 * to an activation in the same JVM whose listener echoes the request with
 * {@code ReceiveCompletion.reply} ({@link EchoCallPair}), each call timed with System.nanoTime and
 * recorded in an HdrHistogram. Not a test: a main run by {@code it-tests/lab/bench/round-trip.sh}
 * inside the rxe lab, one long-lived JVM for all runs (a JVM start and its JIT cost minutes on the
 * emulated CPU).
 *
 * <p>It connects, then warms up: calls (the sizes of WARMUP_SIZES in turn, 100 calls each) for at
 * least WARMUP_SECONDS and until the JIT has finished no compilation for {@code bench.jitQuietSeconds}
 * (the JVM's CompilationMXBean total compilation time stands still), or for
 * {@code bench.warmupMaxSeconds} at most, so that JIT compilation stays out of the timed runs
 * (under the lab's emulated CPU C2 still compiles the call path after thousands of calls). Then it
 * reads runs from stdin: each line
 * {@code SIZE CALLS} makes one run of {@code bench.preCalls} untimed calls (after the benchmark
 * script has thawed the frozen JVM) and CALLS timed calls of SIZE bytes each way. EOF: close and
 * exit 0. Output lines (stdout; latencies in µs):
 * <pre>
 * CONNECTED seconds=T
 * READY warmup_calls=N seconds=T jit_ms=J jit_quiet=true|false
 * CALL run=R size=S calls=N errors=E p50=.. p90=.. p99=.. p999=.. max=.. mean=.. seconds=T
 * </pre>
 * R numbers the runs from 0; E counts calls that threw (e.g. CallTimedOutException after
 * {@code bench.callTimeoutMs}) or whose reply was not SIZE bytes long, which are not recorded; mean
 * is the recorded calls' mean; T is the run's wall time in seconds (READY: since the start); J is the
 * JIT's total compilation time, jit_quiet whether the warm-up ended on a quiet JIT (false: at
 * {@code bench.warmupMaxSeconds}).
 *
 * <p>Usage: {@code CallRoundTrip DEVICE ADDRESS WARMUP_SECONDS WARMUP_SIZES < runs} — WARMUP_SIZES
 * comma-separated bytes (each at most 4096: the default buffer sizes of both ends). System properties:
 * {@code bench.provider} (ibverbs), {@code bench.pollMode} (adaptive), {@code bench.maxConcurrency}
 * (1: the poller delivers on its own thread), {@code bench.preCalls} (100),
 * {@code bench.jitQuietSeconds} (5), {@code bench.warmupMaxSeconds} (300),
 * {@code bench.callTimeoutMs} (10000), {@code bench.remote} (a port: call an {@link EchoResponder}
 * on ADDRESS:port in another process instead of an activation in this JVM); the adapter's own ({@code srq.spinners},
 * {@code srq.call.spinNanos}) apply.
 */
public final class CallRoundTrip {
    private static final int WARMUP_BATCH = 100;
    private static final int MAX_SIZE = 4096;
    private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();

    private final SrqPeer peer;
    private final Duration timeout = Duration.ofMillis(Long.getLong("bench.callTimeoutMs", 10_000));
    private final ByteBuffer request = ByteBuffer.allocateDirect(MAX_SIZE);
    private final Histogram histogram = new Histogram(3);
    private long errors;
    private int runNumber;
    private boolean jitQuiet;

    private CallRoundTrip(SrqPeer peer) {
        this.peer = peer;
        for (int i = 0; i < MAX_SIZE; i++) {
            request.put(i, (byte) i);
        }
    }

    /**
     * @param args DEVICE ADDRESS WARMUP_SECONDS WARMUP_SIZES
     * @throws Exception set-up failure (exit code 1)
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: CallRoundTrip DEVICE ADDRESS WARMUP_SECONDS WARMUP_SIZES < 'SIZE CALLS' lines");
            System.exit(2);
        }
        long warmupNanos = (long) (Double.parseDouble(args[2]) * 1e9);
        int[] warmupSizes = Arrays.stream(args[3].split(",")).mapToInt(CallRoundTrip::size).toArray();
        long t0 = System.nanoTime();
        String remote = System.getProperty("bench.remote", "");
        String provider = System.getProperty("bench.provider", "ibverbs");
        try (EchoCallPair pair = remote.isEmpty()
                ? EchoCallPair.open(provider, args[0], args[1], System.getProperty("bench.pollMode", "adaptive"),
                System.getProperty("bench.maxConcurrency", "1"))
                : EchoCallPair.connectTo(provider, args[0], new java.net.InetSocketAddress(args[1],
                Integer.parseInt(remote)));
             BufferedReader runs = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII))) {
            line("CONNECTED seconds=%.1f", (System.nanoTime() - t0) / 1e9);
            CallRoundTrip bench = new CallRoundTrip(pair.peer());
            long warmupCalls = bench.warmUp(warmupNanos, warmupSizes);
            line("READY warmup_calls=%d seconds=%.1f jit_ms=%d jit_quiet=%b", warmupCalls,
                    (System.nanoTime() - t0) / 1e9, JIT.getTotalCompilationTime(), bench.jitQuiet);
            int preCalls = Integer.getInteger("bench.preCalls", 100);
            String run;
            while ((run = runs.readLine()) != null) {
                if (run.isBlank()) {
                    continue;
                }
                String[] f = run.trim().split("\\s+");
                bench.run(size(f[0]), Integer.parseInt(f[1]), preCalls);
            }
        }
    }

    private static int size(String text) {
        int size = Integer.parseInt(text.trim());
        if (size < 1 || size > MAX_SIZE) {
            throw new IllegalArgumentException("size must be 1.." + MAX_SIZE + " bytes, got " + size);
        }
        return size;
    }

    /** @return calls made; sets {@link #jitQuiet} */
    private long warmUp(long minNanos, int[] sizes) {
        long start = System.nanoTime();
        long quietNanos = (long) (Double.parseDouble(System.getProperty("bench.jitQuietSeconds", "5")) * 1e9);
        long maxNanos = (long) (Double.parseDouble(System.getProperty("bench.warmupMaxSeconds", "300")) * 1e9);
        long compiled = JIT.getTotalCompilationTime();
        long quietSince = start;
        long calls = 0;
        for (int i = 0; ; i++) {
            calls += calls(sizes[i % sizes.length], WARMUP_BATCH, false);
            long now = System.nanoTime();
            long c = JIT.getTotalCompilationTime();
            if (c != compiled) {
                compiled = c;
                quietSince = now;
            }
            jitQuiet = now - quietSince >= quietNanos;
            if (now - start >= maxNanos || (now - start >= minNanos && jitQuiet)) {
                break;
            }
        }
        histogram.reset();
        errors = 0;
        return calls;
    }

    private void run(int size, int calls, int preCalls) {
        calls(size, preCalls, false);
        histogram.reset();
        errors = 0;
        long t = System.nanoTime();
        calls(size, calls, true);
        double seconds = (System.nanoTime() - t) / 1e9;
        line("CALL run=%d size=%d calls=%d errors=%d p50=%.2f p90=%.2f p99=%.2f p999=%.2f max=%.2f mean=%.2f seconds=%.2f",
                runNumber++, size, histogram.getTotalCount(), errors, us(50), us(90), us(99), us(99.9),
                histogram.getMaxValue() / 1e3, histogram.getMean() / 1e3, seconds);
    }

    /** @return calls made; each is recorded when {@code record}, errors counted either way */
    private int calls(int size, int n, boolean record) {
        for (int i = 0; i < n; i++) {
            request.clear().limit(size);
            long start = System.nanoTime();
            try {
                int length = peer.call(request, timeout).length();
                long nanos = System.nanoTime() - start;
                if (length != size) {
                    errors++;
                } else if (record) {
                    histogram.recordValue(nanos);
                }
            } catch (RuntimeException e) {
                errors++;
                System.err.println("call of " + size + " B failed: " + e);
            }
        }
        return n;
    }

    private double us(double percentile) {
        return histogram.getValueAtPercentile(percentile) / 1e3;
    }

    private static void line(String format, Object... args) {
        System.out.printf(Locale.ROOT, format + "%n", args);
        System.out.flush();
    }
}
