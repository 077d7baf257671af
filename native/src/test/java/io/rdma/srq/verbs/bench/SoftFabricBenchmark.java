package io.rdma.srq.verbs.bench;

import io.rdma.srq.testing.SoftDeviceBenchmark;
import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import java.util.EnumSet;

/**
 * Soft fabric, one thread: post 32 SENDs of {@code size} bytes, poll their 32 receive completions
 * off the SRQ's CQ and the 32 send completions, repost the 32 receive buffers as one chain. Score:
 * messages per second (each op = one message through send → SRQ → poll → repost).
 *
 * <p>Run: {@code JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 mvn -B -pl native -am -Pbench verify}
 */
public class SoftFabricBenchmark extends SoftDeviceBenchmark {
    private static final int BATCH = 32;

    @Param({"64"})
    public int size;

    private Context ctx;
    private SharedReceiveQueue srq;
    private CompletionQueue sendCq;
    private CompletionQueue recvCq;
    private QueuePair sender;
    private MemoryRegion slab;
    private ReceiveWorkRequests wrs;
    private WorkCompletionArray wcs;

    @Setup(Level.Trial)
    public void setUp() throws VerbsException {
        ctx = Verbs.provider(Verbs.SOFT).open("soft_rxe0");
        ProtectionDomain pd = ctx.allocPd();
        srq = pd.createSrq(new SrqAttributes(4 * BATCH, 1, 0));
        sendCq = ctx.createCq(4 * BATCH, null);
        recvCq = ctx.createCq(4 * BATCH, null);
        sender = pd.createQp(QpInitAttributes.builder(QpInitAttributes.QpType.RC).cq(sendCq)
                .maxSendWr(2 * BATCH).maxRecvWr(1).maxRecvSge(1).build());
        QueuePair receiver = pd.createQp(QpInitAttributes.rcOnSrq(recvCq, srq, 1));
        sender.connect(1, 0, receiver.localEndpoint(1, 0));
        receiver.connect(1, 0, sender.localEndpoint(1, 0));
        slab = pd.allocateRegistered((long) (BATCH + 1) * size, EnumSet.of(AccessFlag.LOCAL_WRITE));
        wrs = new ReceiveWorkRequests(BATCH);
        wcs = new WorkCompletionArray(BATCH);
        for (int i = 0; i < BATCH; i++) {
            wrs.set(i, i, slab.address() + (long) (i + 1) * size, size, slab.lkey());
        }
        srq.postReceive(wrs, BATCH);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int sendReceivePollRepost() throws VerbsException {
        for (int i = 0; i < BATCH; i++) {
            sender.postSend(i, slab, 0, size, null);
        }
        int received = 0;
        while (received < BATCH) {
            int n = recvCq.poll(wcs);
            for (int i = 0; i < n; i++) {
                int b = (int) wcs.wrId(i);
                wrs.set(received + i, b, slab.address() + (long) (b + 1) * size, size, slab.lkey());
            }
            received += n;
        }
        int sent = 0;
        while (sent < BATCH) {
            sent += sendCq.poll(wcs);
        }
        srq.postReceive(wrs, BATCH);
        return received;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws VerbsException {
        wrs.close();
        wcs.close();
        ctx.close();
    }
}
