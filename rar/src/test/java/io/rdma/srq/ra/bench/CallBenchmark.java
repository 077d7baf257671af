package io.rdma.srq.ra.bench;

import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.SrqResourceAdapter;
import io.rdma.srq.ra.inbound.SrqActivation;
import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.outbound.SrqManagedConnectionFactory;
import io.rdma.srq.ra.testing.TestBootstrapContext;
import io.rdma.srq.ra.testing.TestConnectionManager;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import io.rdma.srq.ra.testing.TestWorkManager;
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

    /** The activation's pollMode. */
    @Param({"adaptive", "event", "busy"})
    public String pollMode;

    /** The activation's maxConcurrency: 1, on the poller's thread; 2, on a pool thread (see the class comment). */
    @Param({"1", "2"})
    public String maxConcurrency;

    private SrqResourceAdapter ra;
    private TestBootstrapContext bootstrap;
    private TestConnectionManager cm;
    private SrqConnection connection;
    private SrqPeer peer;
    private final ByteBuffer request = ByteBuffer.allocateDirect(64);

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        ra = new SrqResourceAdapter();
        bootstrap = new TestBootstrapContext(new TestWorkManager());
        ra.start(bootstrap);
        TestEndpointFactory endpoints = new TestEndpointFactory();
        endpoints.recordPayloads(false);
        endpoints.behaviour(c -> {
            try {
                c.reply(c.payload());
            } catch (VerbsException e) {
                throw new IllegalStateException(e);
            }
        });
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setProvider("soft");
        spec.setListenAddress("10.0.0.1");
        spec.setListenPort("0");
        spec.setPollMode(pollMode);
        spec.setMaxConcurrency(maxConcurrency);
        spec.setResourceAdapter(ra);
        ra.endpointActivation(endpoints, spec);
        SrqActivation a = ra.activations().getFirst();
        SrqManagedConnectionFactory mcf = new SrqManagedConnectionFactory();
        mcf.setProvider("soft");
        mcf.setResourceAdapter(ra);
        cm = new TestConnectionManager();
        SrqConnectionFactory factory = (SrqConnectionFactory) mcf.createConnectionFactory(cm);
        connection = factory.getConnection();
        peer = connection.connect(a.listenAddress(), Duration.ofSeconds(5));
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        connection.close();
        cm.flush();
        ra.stop();
        bootstrap.testWorkManager().shutdown();
    }

    /** @return the reply's length (64) */
    @Benchmark
    public int call() {
        return peer.call(request.clear(), Duration.ofSeconds(5)).length();
    }
}
