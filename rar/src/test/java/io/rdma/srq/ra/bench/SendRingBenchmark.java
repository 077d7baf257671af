package io.rdma.srq.ra.bench;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.support.SendRing;
import io.rdma.srq.testing.SoftDeviceBenchmark;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.WorkCompletionArray;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.EnumSet;

/**
 * {@link SendRing#post} on ONE thread with room in the ring (the hot path of every send and reply):
 * 64 posts of 64 bytes through a ring of 64 slots into a soft QP whose peer's SRQ always has
 * receives, then the 64 receive completions polled and reposted. The ring reaps its send CQ once
 * per turn, when the first post of the next turn finds it full, so the score is the post path plus
 * one reap per 64 messages and the soft fabric's copy. Score: messages per second on one core.
 */
public class SendRingBenchmark extends SoftDeviceBenchmark {
    private static final int BATCH = 64;
    private Context context;
    private SendRing ring;
    private CompletionQueue recvCq;
    private SharedReceiveQueue srq;
    private MemoryRegion receives;
    private WorkCompletionArray wcs;
    private ReceiveWorkRequests wrs;
    private final ByteBuffer message = ByteBuffer.allocateDirect(64);

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        context = Verbs.provider(Verbs.SOFT).open("soft_rxe0");
        ProtectionDomain pd = context.allocPd();
        srq = pd.createSrq(new SrqAttributes(4 * BATCH, 1, 0));
        CompletionQueue sendCq = context.createCq(2 * BATCH, null);
        recvCq = context.createCq(4 * BATCH, null);
        QueuePair a = pd.createQp(QpInitAttributes.rcOnSrq(sendCq, srq, BATCH));
        QueuePair b = pd.createQp(QpInitAttributes.rcOnSrq(recvCq, srq, BATCH));
        a.connect(1, 0, b.localEndpoint(1, 0));
        b.connect(1, 0, a.localEndpoint(1, 0));
        receives = pd.allocateRegistered(2L * BATCH * 64, EnumSet.of(AccessFlag.LOCAL_WRITE));
        wcs = new WorkCompletionArray(BATCH);
        wrs = new ReceiveWorkRequests(BATCH);
        ring = new SendRing(pd, a, sendCq, 64, BATCH, () -> "bench", Duration.ofSeconds(30));
        for (int i = 0; i < 2 * BATCH; i++) {
            wrs.set(i % BATCH, i, receives.address() + i * 64L, 64, receives.lkey());
            if (i % BATCH == BATCH - 1) {
                srq.postReceive(wrs, BATCH);
            }
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int postWithRoom() throws VerbsException {
        for (int i = 0; i < BATCH; i++) {
            message.clear();
            ring.post(message, i, "sendBufferSize");
        }
        int received = 0;
        while (received < BATCH) {
            int n = recvCq.poll(wcs);
            for (int i = 0; i < n; i++) {
                long id = wcs.wrId(i);
                wrs.set(i, id, receives.address() + id * 64L, 64, receives.lkey());
            }
            if (n > 0) {
                srq.postReceive(wrs, n);
            }
            received += n;
        }
        return received;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        ring.close();
        wcs.close();
        wrs.close();
        context.close();
    }
}
