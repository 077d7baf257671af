package io.rdma.srq.ra.bench;

import io.rdma.srq.testing.SoftDeviceBenchmark;
import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.inbound.config.InboundConfig;
import io.rdma.srq.ra.inbound.connections.Links;
import io.rdma.srq.ra.inbound.delivery.Poller;
import io.rdma.srq.ra.inbound.delivery.ReceiveBuffers;
import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.support.RcConnection;
import io.rdma.srq.ra.testing.TestWorkManager;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.WorkCompletionArray;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import java.util.EnumSet;

/**
 * The adapter's inbound path on ONE thread, in the shape of native's SoftFabricBenchmark (the bare
 * loop): post 32 SENDs of 64 bytes from a QP on the same soft context, then turn the adapter's
 * {@link Poller} ({@code pollOnce}: repost/top-up, poll, one delivery batch to a no-op endpoint run
 * on this thread) until the 32 are delivered, then reap the 32 send completions. The benchmark builds
 * the parts of an activation it needs — SRQ, CQ, {@link ReceiveBuffers}, {@link Links}, the
 * {@link Poller} (whose Work it never schedules) and an {@link RcConnection} on the SRQ, connected
 * directly to the sender — the way {@code SrqActivation} builds them.
 * Score: messages per second on one core; the per-message overhead of the adapter is
 * 1/this − 1/SoftFabricBenchmark.
 */
public class AdapterPathBenchmark extends SoftDeviceBenchmark {
    private static final int BATCH = 32;
    private TestWorkManager wm;
    private Context context;
    private Poller poller;
    private CompletionQueue sendCq;
    private QueuePair sender;
    private MemoryRegion message;
    private WorkCompletionArray wcs;
    private WorkCompletionArray sendWcs;
    private ReceiveWorkRequests wrs;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        wm = new TestWorkManager(true);
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setProvider("soft");
        spec.setSrqMaxWr("256");
        spec.setSrqLimit("0");
        spec.setBufferSize("64");
        spec.setPollMode("busy");
        spec.setMaxConcurrency("1");
        InboundConfig config = spec.config();
        context = config.device().open("bench");
        ProtectionDomain pd = context.allocPd();
        CompletionQueue cq = context.createCq(config.cqSize(), null);
        SharedReceiveQueue srq = pd.createSrq(new SrqAttributes(config.srq().maxWr(), config.srq().maxSge(), 0));
        io.rdma.srq.ra.inbound.connections.CqSweep sweep = new io.rdma.srq.ra.inbound.connections.CqSweep();
        Links links = new Links("bench", pd, cq, srq, config.replyBufferSize(), config.replyTimeout(), config.fabric(),
                sweep);
        poller = new Poller("bench", config, cq, null, new ReceiveBuffers(pd, srq, config), links,
                new NoOpEndpointFactory(false), wm,
                new io.rdma.srq.ra.inbound.delivery.DeliveryRules("bench", 1, null, (event, loader) -> { }, null,
                        false, 1), sweep);
        QueuePair receiver = RcConnection.create(pd, RcConnection.Receives.fromSrq(cq, srq),
                new RcConnection.Sends(config.replyBufferSize(), "replyBufferSize", false)).qp();
        sendCq = context.createCq(4 * BATCH, null);
        sender = pd.createQp(QpInitAttributes.builder(QpInitAttributes.QpType.RC).cq(sendCq)
                .maxSendWr(2 * BATCH).maxRecvWr(1).maxRecvSge(1).build());
        sender.connect(1, 0, receiver.localEndpoint(1, 0));
        receiver.connect(1, 0, sender.localEndpoint(1, 0));
        message = pd.allocateRegistered(64, EnumSet.of(AccessFlag.LOCAL_WRITE));
        wcs = new WorkCompletionArray(BATCH);
        sendWcs = new WorkCompletionArray(BATCH);
        wrs = new ReceiveWorkRequests(BATCH);
        poller.pollOnce(wcs, wrs); // the first turn fills the SRQ
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int sendDeliverRepost() throws VerbsException, InterruptedException {
        for (int i = 0; i < BATCH; i++) {
            sender.postSend(i, message, 0, 64, null);
        }
        int delivered = 0;
        while (delivered < BATCH) {
            int n = poller.pollOnce(wcs, wrs);
            if (n > 0) {
                delivered += n;
            }
        }
        int sent = 0;
        while (sent < BATCH) {
            sent += sendCq.poll(sendWcs);
        }
        return delivered;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        wcs.close();
        sendWcs.close();
        wrs.close();
        context.close();
        wm.shutdown();
    }
}
