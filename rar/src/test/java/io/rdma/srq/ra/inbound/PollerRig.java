package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.inbound.config.InboundConfig;
import io.rdma.srq.ra.inbound.connections.CqSweep;
import io.rdma.srq.ra.inbound.connections.Links;
import io.rdma.srq.ra.inbound.delivery.DeliveryRules;
import io.rdma.srq.ra.inbound.delivery.Poller;
import io.rdma.srq.ra.inbound.delivery.ReceiveBuffers;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.ra.support.RcConnection;
import io.rdma.srq.ra.testing.BeanProperties;
import io.rdma.srq.ra.testing.TestEndpointFactory;
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

import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.function.UnaryOperator;

/**
 * An activation's receive path on the soft device without the activation, for tests that need to
 * stand between its parts: SRQ, CQ, {@link ReceiveBuffers}, {@link Links} and a {@link Poller} (its
 * Work never scheduled: the test turns it with {@link #turn}), an RC QP on the SRQ connected directly
 * to a sender QP on the same context — the way {@code AdapterPathBenchmark} builds them. The test may
 * wrap the CQ the poller polls and the PD the slab is registered with.
 */
final class PollerRig implements AutoCloseable {
    private static final int BATCH = Poller.BATCH;
    final Poller poller;
    final ReceiveBuffers buffers;
    private final TestWorkManager workManager;
    private final Context context;
    private final CompletionQueue sendCq;
    private final QueuePair sender;
    private final MemoryRegion message;
    private final WorkCompletionArray wcs = new WorkCompletionArray(BATCH);
    private final WorkCompletionArray sendWcs = new WorkCompletionArray(BATCH);
    private final ReceiveWorkRequests wrs = new ReceiveWorkRequests(BATCH);
    private long sent;

    /**
     * @param endpoints  the endpoints batches are delivered to
     * @param onCaller   whether batches run on the thread that turns the poller (else on a pool thread)
     * @param slabPd     wraps the PD the receive slab is registered with
     * @param polledCq   wraps the CQ the poller polls
     * @param properties activation properties (pairs of name and value) over provider soft, bufferSize 64
     * @throws Exception when a step fails
     */
    PollerRig(TestEndpointFactory endpoints, boolean onCaller, UnaryOperator<ProtectionDomain> slabPd,
              UnaryOperator<CompletionQueue> polledCq, String... properties) throws Exception {
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setProvider("soft");
        spec.setBufferSize("64");
        spec.setSrqLimit("0");
        spec.setPollMode("busy");
        BeanProperties.set(spec, properties);
        InboundConfig config = spec.config();
        workManager = new TestWorkManager(onCaller);
        context = config.device().open("poller-rig");
        ProtectionDomain pd = context.allocPd();
        CompletionQueue cq = context.createCq(config.cqSize(), null);
        SharedReceiveQueue srq = pd.createSrq(new SrqAttributes(config.srq().maxWr(), config.srq().maxSge(), 0));
        CqSweep sweep = new CqSweep();
        Links links = new Links("rig", pd, cq, srq, config.replyBufferSize(), config.replyTimeout(), config.fabric(),
                sweep);
        buffers = new ReceiveBuffers(slabPd.apply(pd), srq, config);
        poller = new Poller("rig", config, polledCq.apply(cq), null, buffers, links, endpoints, workManager,
                new DeliveryRules("rig", config.maxDeliveryAttempts(), null, (event, loader) -> { }, null, false, 1),
                sweep);
        QueuePair receiver = RcConnection.create(pd, RcConnection.Receives.fromSrq(cq, srq),
                new RcConnection.Sends(config.replyBufferSize(), "replyBufferSize", false)).qp();
        sendCq = context.createCq(4 * BATCH, null);
        sender = pd.createQp(QpInitAttributes.builder(QpInitAttributes.QpType.RC).cq(sendCq)
                .maxSendWr(2 * BATCH).maxRecvWr(1).maxRecvSge(1).build());
        sender.connect(1, 0, receiver.localEndpoint(1, 0));
        receiver.connect(1, 0, sender.localEndpoint(1, 0));
        message = pd.allocateRegistered(8L * 2 * BATCH, EnumSet.of(AccessFlag.LOCAL_WRITE));
        turn(); // the first turn fills the SRQ
    }

    /**
     * Sends one 8-byte message holding {@code seq} (native order) to the SRQ and reaps its send
     * completion (the receiver acknowledged it: it is in the CQ).
     */
    void send(long seq) throws Exception {
        long slot = (sent++ % (2 * BATCH)) * 8;
        message.segment().set(ValueLayout.JAVA_LONG_UNALIGNED, slot, seq);
        sender.postSend(seq, message, slot, 8, null);
        while (sendCq.poll(sendWcs) == 0) {
            Thread.onSpinWait();
        }
        if (!sendWcs.isSuccess(0)) {
            throw new IllegalStateException("send " + seq + " completed with " + sendWcs.status(0));
        }
    }

    /** @return one turn of the poller ({@link Poller#pollOnce}): completions taken, or -1 */
    int turn() throws Exception {
        return poller.pollOnce(wcs, wrs);
    }

    @Override
    public void close() throws Exception {
        wcs.close();
        sendWcs.close();
        wrs.close();
        context.close();
        workManager.shutdown();
    }
}
