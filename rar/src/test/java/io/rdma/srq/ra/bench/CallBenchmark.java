package io.rdma.srq.ra.bench;

import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.testing.SoftDeviceBenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * One caller's {@code SrqPeer.call} round trip, container-less on the soft device: a pooled
 * connection's pooled peer to an activation whose listener answers with
 * {@code ReceiveCompletion.reply} (64 B each way). Sample time, so JMH reports p50/p99/p99.9.
 *
 * <p>Threads that spin while a call waits: the caller, polling its pooled connection's CQ (for
 * {@code srq.call.spinNanos}, 20 µs by default, then it parks and the outbound servicing loop polls
 * for it), and the activation's poller while it waits for the next request: {@code adaptive} spins
 * 50 µs, {@code event} never, {@code busy} always. The caller, the adaptive poller and the servicing
 * loop spin only with a slot of {@code SpinBudget} (system property {@code srq.spinners}, default
 * availableProcessors − 1: one on 2 cores); a busy poller spins without one.
 *
 * <p>{@code maxConcurrency} of the activation: 1 makes the poller run each delivery itself (the
 * round trip crosses two threads: the caller's and the poller's; see Poller), 2 hands each to a pool
 * thread of the WorkManager (a hand-off per request, as before with any maxConcurrency).
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CallBenchmark extends SoftDeviceBenchmark {
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);

    /** The activation's pollMode. */
    @Param({"adaptive", "event", "busy"})
    public String pollMode;

    /** The activation's maxConcurrency: 1, on the poller's thread; 2, on a pool thread (see the class comment). */
    @Param({"1", "2"})
    public String maxConcurrency;

    private EchoCallPair pair;
    private SrqPeer peer;
    private final ByteBuffer request = ByteBuffer.allocateDirect(64);

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        pair = EchoCallPair.open("soft", "", "10.0.0.1", pollMode, maxConcurrency);
        peer = pair.peer();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        pair.close();
    }

    /** @return the reply's length (64) */
    @Benchmark
    public int call() {
        return peer.call(request.clear(), CALL_TIMEOUT).length();
    }
}
