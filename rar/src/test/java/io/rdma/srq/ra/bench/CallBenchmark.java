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
 * <p>Threads that spin while a call waits: the caller (for {@code srq.call.spinNanos}, 20 µs by
 * default, then it parks), the outbound servicing loop (polls without pause while a call waits),
 * and the activation's poller with {@code pollMode=busy} ({@code adaptive} spins, then waits on the
 * completion channel). On 2 cores, {@code busy} makes three spinning threads for two cores.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CallBenchmark extends SoftDeviceBenchmark {

    /** The activation's pollMode. */
    @Param({"adaptive", "busy"})
    public String pollMode;

    private SrqResourceAdapter ra;
    private TestBootstrapContext bootstrap;
    private TestConnectionManager cm;
    private SrqConnection connection;
    private SrqPeer peer;
    private final ByteBuffer request = ByteBuffer.allocateDirect(64);

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        ra = new SrqResourceAdapter();
        bootstrap = new TestBootstrapContext();
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
        spec.setMaxConcurrency("1");
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
