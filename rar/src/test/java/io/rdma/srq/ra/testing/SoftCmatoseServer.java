package io.rdma.srq.ra.testing;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmListener;
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

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;

/**
 * rdma-core's {@code ucmatose} in server mode (librdmacm/examples/cmatose.c, run_server), on its own
 * soft context: accepts {@code connections} RC QPs whose receives come from one SRQ of
 * {@code connections × count} receives of {@code size} bytes (cmatose gives each QP its own receive
 * queue of {@code count}; this verbs layer posts receives to SRQs only); once all are ESTABLISHED, sends {@code count}
 * messages on each, waits for their send completions and for {@code count} replies on each, then
 * disconnects every connection and waits for DISCONNECTED. The lab runs the real ucmatose instead.
 */
public final class SoftCmatoseServer implements AutoCloseable {
    private final int connections;
    private final int count;
    private final int size;
    private final Context ctx;
    private final ProtectionDomain pd;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final MemoryRegion mem;
    private final SharedReceiveQueue srq;
    private final CmListener listener;
    private final List<CmConnection> accepted = new ArrayList<>();
    /** Send and receive completions with an error status. */
    public int errorCompletions;
    /** Replies received, over all connections. */
    public int repliesReceived;
    /** Messages whose send completed. */
    public int sendsCompleted;

    /**
     * @param connections the connections to wait for (ucmatose -c)
     * @param count       messages each way per connection (ucmatose -C)
     * @param size        bytes per message (ucmatose -S, 100 by default)
     * @throws VerbsException when the soft listener cannot start
     */
    public SoftCmatoseServer(int connections, int count, int size) throws VerbsException {
        this.connections = connections;
        this.count = count;
        this.size = size;
        ctx = Verbs.provider(Verbs.SOFT).open("soft_rxe0");
        pd = ctx.allocPd();
        sendCq = ctx.createCq(connections * count, null);
        recvCq = ctx.createCq(connections * count, null);
        mem = pd.allocateRegistered(size, EnumSet.of(AccessFlag.LOCAL_WRITE));
        srq = pd.createSrq(new SrqAttributes(connections * count, 1, 0));
        try (ReceiveWorkRequests wrs = new ReceiveWorkRequests(connections * count)) {
            for (int i = 0; i < connections * count; i++) {
                wrs.set(i, i, mem.address(), size, mem.lkey());
            }
            srq.postReceive(wrs, connections * count);
        }
        listener = ctx.listen(new InetSocketAddress("10.0.0.2", 0), 64);
    }

    /** @return where it listens */
    public InetSocketAddress address() {
        return listener.localAddress();
    }

    /**
     * Runs the whole exchange.
     *
     * @param limit the longest it may take
     * @return true when every step ended (false: timed out)
     * @throws VerbsException on a verbs error
     */
    public boolean run(Duration limit) throws VerbsException {
        long deadline = System.nanoTime() + limit.toNanos();
        int established = 0;
        while (established < connections) {
            Optional<CmEvent> e = next(deadline);
            if (e.isEmpty()) {
                return false;
            }
            if (e.get().type() == CmEventType.CONNECT_REQUEST) {
                accept(e.get());
            } else if (e.get().type() == CmEventType.ESTABLISHED) {
                established++;
            }
        }
        for (CmConnection c : accepted) {
            for (int i = 0; i < count; i++) {
                c.qp().postSend(i, mem, 0, size, null);
            }
        }
        try (WorkCompletionArray wcs = new WorkCompletionArray(8)) {
            sendsCompleted = drain(sendCq, wcs, deadline);
            repliesReceived = drain(recvCq, wcs, deadline);
        }
        if (sendsCompleted < connections * count || repliesReceived < connections * count) {
            return false;
        }
        for (CmConnection c : accepted) {
            c.disconnect();
        }
        int disconnected = 0;
        while (disconnected < connections) {
            Optional<CmEvent> e = next(deadline);
            if (e.isEmpty()) {
                return false;
            }
            if (e.get().type() == CmEventType.DISCONNECTED) {
                disconnected++;
            }
        }
        return true;
    }

    private Optional<CmEvent> next(long deadline) throws VerbsException {
        while (System.nanoTime() < deadline) {
            Optional<CmEvent> e = listener.nextEvent(Duration.ofMillis(20));
            if (e.isPresent()) {
                return e;
            }
        }
        return Optional.empty();
    }

    private void accept(CmEvent e) throws VerbsException {
        QueuePair qp = pd.createQp(QpInitAttributes.builder(QpInitAttributes.QpType.RC).sendCq(sendCq).recvCq(recvCq).srq(srq)
                .maxSendWr(count).build());
        accepted.add(e.request().accept(qp));
    }

    private int drain(CompletionQueue cq, WorkCompletionArray wcs, long deadline) throws VerbsException {
        int done = 0;
        while (done < connections * count && System.nanoTime() < deadline) {
            int n = cq.poll(wcs);
            for (int i = 0; i < n; i++) {
                if (!wcs.isSuccess(i)) {
                    errorCompletions++;
                }
            }
            done += n;
            if (n == 0) {
                Thread.onSpinWait();
            }
        }
        return done;
    }

    @Override
    public void close() throws VerbsException {
        listener.close();
        ctx.close();
    }
}
