package io.rdma.srq.ra.bench;

import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.ra.SrqResourceAdapter;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.outbound.SrqManagedConnectionFactory;
import io.rdma.srq.ra.testing.TestBootstrapContext;
import io.rdma.srq.ra.testing.TestConnectionManager;
import io.rdma.srq.ra.testing.TestWorkManager;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * Figure (d) of it-tests/bench/side-by-side.sh: the throughput cases (a) and (b) without the
 * container, same shape otherwise. Two sender threads, each a pooled connection with 4
 * {@link SrqPeer}s to the activation, sending 64 B round-robin over them ({@code SrqPeer.send}, as
 * the bench war's SrqSender); the activation configured as the war's sinks (srqMaxWr 1024,
 * srqLimit 64, initialFill 1024, bufferSize 256, maxConcurrency 8, default pollMode, maxBatchSize
 * 32 for the batch listener); each batch handed to a pool thread (the container's hand-off) and
 * delivered to a no-op endpoint ({@code listener} single: {@code SrqReceiveListener}, one call per
 * message; batch: {@code SrqBatchListener}, one call per batch). Score: messages sent per second,
 * both threads (a sender cannot run more than the SRQ's depth ahead of the receiver: receiver not
 * ready holds it back). The trial fails unless every message sent was delivered.
 */
@State(Scope.Benchmark)
@Threads(2)
public class SinkThroughputBenchmark extends io.rdma.srq.testing.SoftDeviceBenchmark {
    private static final int PEERS = 4;

    /** single: SrqReceiveListener, as case (a); batch: SrqBatchListener with maxBatchSize 32, as (b). */
    @Param({"single", "batch"})
    public String listener;

    private SrqResourceAdapter ra;
    private TestBootstrapContext bootstrap;
    private TestConnectionManager cm;
    private SrqConnectionFactory factory;
    private SrqActivation activation;
    private NoOpEndpointFactory endpoints;
    private final LongAdder sent = new LongAdder();

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        ra = new SrqResourceAdapter();
        bootstrap = new TestBootstrapContext(new TestWorkManager());
        ra.start(bootstrap);
        endpoints = "batch".equals(listener) ? NoOpEndpointFactory.batches() : new NoOpEndpointFactory(false);
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setProvider("soft");
        spec.setListenAddress("10.0.0.1");
        spec.setListenPort("0");
        spec.setSrqMaxWr("1024");
        spec.setSrqLimit("64");
        spec.setInitialFill("1024");
        spec.setReplenishPolicy("fixed");
        spec.setBufferSize("256");
        spec.setMaxConcurrency("8");
        if ("batch".equals(listener)) {
            spec.setMaxBatchSize("32");
        }
        spec.setResourceAdapter(ra);
        ra.endpointActivation(endpoints, spec);
        activation = ra.activations().getFirst();
        SrqManagedConnectionFactory mcf = new SrqManagedConnectionFactory();
        mcf.setProvider("soft");
        mcf.setResourceAdapter(ra);
        cm = new TestConnectionManager();
        factory = (SrqConnectionFactory) mcf.createConnectionFactory(cm);
    }

    /** One sender thread's pooled connection and peers. */
    @State(Scope.Thread)
    public static class Sender {
        SrqConnection connection;
        final List<SrqPeer> peers = new ArrayList<>();
        final ByteBuffer message = ByteBuffer.allocateDirect(64);
        long seq;

        @Setup(Level.Trial)
        public void connect(SinkThroughputBenchmark b) throws Exception {
            connection = b.factory.getConnection();
            for (int i = 0; i < PEERS; i++) {
                peers.add(connection.connect(b.activation.listenAddress(), Duration.ofSeconds(10)));
            }
        }

        @TearDown(Level.Trial)
        public void close(SinkThroughputBenchmark b) throws Exception {
            for (SrqPeer p : peers) {
                p.flush(Duration.ofSeconds(60));
            }
            b.sent.add(seq);
            for (SrqPeer p : peers) {
                p.close();
            }
            connection.close();
        }
    }

    @Benchmark
    public void send(Sender s) throws Exception {
        s.peers.get((int) (s.seq & (PEERS - 1))).send(s.message.clear(), (int) s.seq);
        s.seq++;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (delivered() < sent.sum() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        long delivered = delivered();
        cm.flush();
        ra.stop();
        bootstrap.testWorkManager().shutdown();
        if (delivered != sent.sum()) { // the score counts sends: they must all have arrived
            throw new IllegalStateException(sent.sum() + " sent, " + delivered + " delivered");
        }
    }

    private long delivered() {
        return activation.statistics().delivered();
    }
}
