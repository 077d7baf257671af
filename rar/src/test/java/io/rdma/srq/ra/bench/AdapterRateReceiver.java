package io.rdma.srq.ra.bench;

import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.testing.TestBootstrapContext;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * The adapter receiver of the lab message-rate benchmark (issue #9): the full inbound path — an
 * {@link SrqActivation} (SRQ, CQ, poller work, one Delivery work per polled batch on the WorkManager,
 * rdma_cm listener) delivering to a no-op {@link SrqReceiveListener} — without a container
 * ({@link TestBootstrapContext}'s WorkManager, a cached thread pool). Not a test: a main run by
 * {@code it-tests/lab/bench/message-rate.sh} inside the rxe lab, fed by the same C sender as the
 * other receivers.
 *
 * <p>Runs are driven by stdin: each line is the number of messages M the next run will bring;
 * the run ends when M messages have been delivered (or completed in error) and the activation has
 * no connection left
 * (the poller may still be draining the CQ when the sender has gone). EOF: deactivate and exit 0.
 * Output lines (stdout):
 * <pre>
 * LISTENING port=P
 * RECEIVER impl=adapter run=N qps=Q messages=M errors=E seconds=T msg_per_s=R
 * STALLED impl=adapter run=N expected=M delivered=D errors=E connections=C
 * </pre>
 * (STALLED: every 60 s a run has not ended, what it has and what it waits for.)
 * M = messages delivered in the run (from {@link SrqActivation#statistics()}), T in seconds from
 * the first to the last onReceive (timestamps taken by the listener), R = (M − 1) / T messages/s;
 * qps = the most connections seen at once.
 *
 * <p>Usage: {@code AdapterRateReceiver DEVICE ADDRESS PORT BUFFER DEPTH [MAX_CONCURRENCY] < counts} —
 * BUFFER bytes per receive buffer (bufferSize), DEPTH receive WRs (srqMaxWr, all posted: srqLimit 0),
 * MAX_CONCURRENCY deliveries at once (default 4); pollMode busy. {@code -Dbench.provider} (ibverbs): the
 * verbs provider ({@code fabric} for {@code it-tests/bench/fabric-message-rate.sh}, fed by
 * {@link AdapterRateSender}).
 */
public final class AdapterRateReceiver {
    private static final long POLL_MS = 20;
    /** A run not ended after this long prints a STALLED line (what it has, what it waits for), then again. */
    private static final long STALL_NANOS = 60_000_000_000L;

    private AdapterRateReceiver() {
    }

    /**
     * @param args DEVICE ADDRESS PORT BUFFER DEPTH [MAX_CONCURRENCY]
     * @throws Exception activation failure (exit code 1)
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 5 && args.length != 6) {
            System.err.println("usage: AdapterRateReceiver DEVICE ADDRESS PORT BUFFER DEPTH [MAX_CONCURRENCY] < counts");
            System.exit(2);
        }
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setProvider(System.getProperty("bench.provider", "ibverbs"));
        spec.setDevice(args[0]);
        spec.setListenAddress(args[1]);
        spec.setListenPort(args[2]);
        spec.setBufferSize(args[3]);
        spec.setSrqMaxWr(args[4]);
        spec.setSrqLimit("0");                    // no limit events: every receive WR posted at start
        spec.setPollMode("busy");
        spec.setMaxConcurrency(args.length == 6 ? args[5] : "4");
        spec.setSrqName("bench");
        NoOpEndpointFactory endpoints = new NoOpEndpointFactory();
        TestBootstrapContext bootstrap = new TestBootstrapContext();
        SrqActivation activation = SrqActivation.start(bootstrap.getWorkManager(), (event, loader) -> { }, null,
                endpoints, spec.config(), spec.recovery());
        try (BufferedReader counts = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII))) {
            System.out.println("LISTENING port=" + activation.listenAddress().getPort());
            System.out.flush();
            long deliveredBefore = 0;
            long errorsBefore = 0;
            String line;
            for (int run = 0; (line = counts.readLine()) != null; run++) {
                long expected = Long.parseLong(line.trim());
                int qps = 0;
                ActivationStatistics s;
                long stallAt = System.nanoTime() + STALL_NANOS;
                do {
                    Thread.sleep(POLL_MS);
                    s = activation.statistics();
                    qps = Math.max(qps, s.connections());
                    if (System.nanoTime() - stallAt > 0) {
                        System.out.printf(Locale.ROOT, "STALLED impl=adapter run=%d expected=%d delivered=%d errors=%d"
                                + " connections=%d%n", run, expected, s.delivered() - deliveredBefore,
                                s.errorCompletions() - errorsBefore, s.connections());
                        System.out.flush();
                        stallAt = System.nanoTime() + STALL_NANOS;
                    }
                } while (s.delivered() - deliveredBefore + s.errorCompletions() - errorsBefore < expected || s.connections() > 0);
                long messages = s.delivered() - deliveredBefore;
                long errors = s.errorCompletions() - errorsBefore;
                deliveredBefore = s.delivered();
                errorsBefore = s.errorCompletions();
                double seconds = endpoints.deliveryNanos() / 1e9;
                System.out.printf(Locale.ROOT,
                        "RECEIVER impl=adapter run=%d qps=%d messages=%d errors=%d seconds=%.6f msg_per_s=%.1f%n",
                        run, qps, messages, errors, seconds, seconds > 0 ? (messages - 1) / seconds : 0.0);
                System.out.flush();
                endpoints.resetClock();
            }
        } finally {
            activation.stop(Duration.ofSeconds(10));
            bootstrap.testWorkManager().shutdown();
        }
    }
}
