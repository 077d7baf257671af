package io.rdma.srq.ra.bench;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.WorkCompletionArray;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;

/**
 * The baseline of the adapter benchmark, in the same shape: a receiver thread on the soft device
 * with an rdma_cm listener, one SRQ of {@code depth} buffers and its CQ, that polls batches of 32
 * and reposts them as one chain — the adapter's poll/repost without batching, endpoints or Works.
 */
final class BarePollLoop implements AutoCloseable {
    private static final int BATCH = 32;
    private final Context ctx;
    private final CmListener listener;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long received;
    private volatile Throwable failure;

    BarePollLoop(int depth, int bufferSize) throws VerbsException {
        ctx = Verbs.provider(Verbs.SOFT).open("soft_rxe0");
        ProtectionDomain pd = ctx.allocPd();
        CompletionQueue cq = ctx.createCq(depth + BATCH, null);
        SharedReceiveQueue srq = pd.createSrq(new SrqAttributes(depth, 1, 0));
        MemoryRegion slab = pd.allocateRegistered((long) depth * bufferSize, EnumSet.of(AccessFlag.LOCAL_WRITE));
        try (ReceiveWorkRequests wrs = new ReceiveWorkRequests(depth)) {
            for (int i = 0; i < depth; i++) {
                wrs.set(i, i, slab.address() + (long) i * bufferSize, bufferSize, slab.lkey());
            }
            srq.postReceive(wrs, depth);
        }
        listener = ctx.listen(new InetSocketAddress("10.0.0.3", 0), 16);
        thread = Thread.ofPlatform().name("bare-poll-loop").daemon().start(() -> loop(pd, cq, srq, slab, bufferSize));
    }

    private void loop(ProtectionDomain pd, CompletionQueue cq, SharedReceiveQueue srq, MemoryRegion slab, int size) {
        try (WorkCompletionArray wcs = new WorkCompletionArray(BATCH); ReceiveWorkRequests wrs = new ReceiveWorkRequests(BATCH)) {
            long n = 0;
            for (long iter = 0; running; iter++) {
                int k = cq.poll(wcs, BATCH);
                if (k > 0) {
                    for (int j = 0; j < k; j++) {
                        long b = wcs.wrId(j);
                        wrs.set(j, b, slab.address() + b * size, size, slab.lkey());
                    }
                    srq.postReceive(wrs, k);
                    n += k;
                    received = n;
                } else if ((iter & 1023) == 0) {
                    Optional<CmEvent> e = listener.nextEvent(Duration.ZERO);
                    if (e.isPresent() && e.get().type() == CmEventType.CONNECT_REQUEST) {
                        e.get().request().accept(pd.createQp(QpInitAttributes.rcOnSrq(cq, srq, 1)));
                    }
                }
            }
        } catch (Throwable t) {
            failure = t;
        }
    }

    InetSocketAddress address() {
        return listener.localAddress();
    }

    long received() {
        if (failure != null) {
            throw new IllegalStateException("the bare poll loop failed", failure);
        }
        return received;
    }

    @Override
    public void close() throws Exception {
        running = false;
        thread.join(5000);
        listener.close();
        ctx.close();
    }
}
