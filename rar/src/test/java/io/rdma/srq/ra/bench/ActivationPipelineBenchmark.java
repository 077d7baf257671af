package io.rdma.srq.ra.bench;

import io.rdma.srq.testing.SoftDeviceBenchmark;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.testing.SoftSender;
import io.rdma.srq.ra.testing.TestWorkManager;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import java.time.Duration;

/**
 * The full inbound adapter path on the soft device to a no-op listener: a peer (its own soft context,
 * soft rdma_cm) posts 64-byte SENDs as fast as the SRQ takes them; the activation (busy poll,
 * srqMaxWr 1024, no limit events) polls batches of up to 32 completions, hands each batch to an
 * endpoint (beforeDelivery / onReceive / afterDelivery per message) and reposts the buffers.
 * Score: messages per second through the whole path. The sender keeps at most {@value #WINDOW}
 * messages ahead of what the receiver has taken (credit-based flow control): without it the SRQ
 * runs dry, and the soft fabric then hands every waiting SEND to the receiver's repost (as an RNR
 * retry), so the receiver would do the sender's copying and the figures turn bimodal (1.1 and 6.1
 * M msg/s seen for the same case). The trial fails unless every message sent was delivered. The sender runs on one core and the receiver on the other. {@code bareLoop} is the
 * baseline in the same shape: a receiver thread that only polls and reposts ({@link BarePollLoop});
 * the adapter's overhead per message is 1/adapter − 1/bareLoop.
 *
 * <p>{@code workManager}: {@code callerRuns} runs each delivery batch on the poller's thread (the
 * adapter's path on one core, the sender on the other); {@code pool} hands it to a pool thread, as
 * a container's WorkManager does. {@code ordering}: the activation property (none: each poll's batch
 * to one endpoint; connection: through the per-connection lanes, {@code ConnectionLanes}); the one
 * sender is one connection, so this measures the lanes' cost, not parallelism. bareLoop ignores it
 * (run it with {@code -p ordering=none} alone).
 */
public class ActivationPipelineBenchmark extends SoftDeviceBenchmark {
    /** Messages the sender may be ahead of the receiver: half the SRQ, so the SRQ never runs dry. */
    private static final int WINDOW = 512;

    /** bareLoop: the baseline ({@link BarePollLoop}); callerRuns, pool: the adapter with that WorkManager. */
    @Param({"bareLoop", "callerRuns", "pool"})
    public String workManager;

    /** The activation property ordering. */
    @Param({"none", "connection"})
    public String ordering;

    private TestWorkManager wm;
    private SrqActivation activation;
    private BarePollLoop bare;
    private SoftSender sender;
    private long seq;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        if ("bareLoop".equals(workManager)) {
            bare = new BarePollLoop(1024, 64);
            sender = new SoftSender(bare.address(), 64);
            return;
        }
        wm = new TestWorkManager("callerRuns".equals(workManager));
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setProvider("soft");
        spec.setListenAddress("10.0.0.1");
        spec.setListenPort("0");
        spec.setSrqMaxWr("1024");
        spec.setSrqLimit("0");
        spec.setBufferSize("64");
        spec.setPollMode("busy");
        spec.setMaxConcurrency("4");
        spec.setOrdering(ordering);
        activation = SrqActivation.start(wm, (event, loader) -> { }, null, new NoOpEndpointFactory(), spec.config(), spec.recovery());
        sender = new SoftSender(activation.listenAddress(), 64);
    }

    @Benchmark
    public void sendThroughTheActivation() throws Exception {
        if ((seq & 63) == 0) {
            while (seq - received() > WINDOW) { // credit-based flow control, as applications do
                Thread.onSpinWait();
            }
        }
        sender.send(seq++, 64, null);
    }

    private long received() {
        return bare != null ? bare.received() : activation.statistics().delivered();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        sender.drain(Duration.ofSeconds(10));
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (received() < seq && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        if (received() != seq) { // the score counts sends: they must all have arrived
            throw new IllegalStateException(seq + " sent, " + received() + " received");
        }
        if (bare != null) {
            sender.close();
            bare.close();
            return;
        }
        sender.close();
        activation.stop(Duration.ofSeconds(10));
        wm.shutdown();
    }
}
