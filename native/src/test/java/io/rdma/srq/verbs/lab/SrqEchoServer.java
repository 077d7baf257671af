package io.rdma.srq.verbs.lab;

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
import io.rdma.srq.verbs.WorkCompletionArray;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * An rdma_cm server on ONE shared receive queue: every accepted connection is an RC QP whose
 * receives come from the SRQ, and every receive buffer is reposted after use. Two roles:
 * <ul>
 *   <li>echo ({@code initiate == 0}): every message received is answered with one of the same
 *       length on its QP — what rdma_client expects of rdma_server;</li>
 *   <li>ucmatose's server ({@code initiate > 0}): on ESTABLISHED it sends {@code initiate}
 *       messages, counts as many replies through the SRQ, then disconnects (cmatose.c run_server).</li>
 * </ul>
 */
final class SrqEchoServer implements AutoCloseable {
    static final int BUFFER = 4096;
    static final int BUFFERS = 1024;
    private static final long RECV = 1L << 62;

    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final SharedReceiveQueue srq;
    private final MemoryRegion receiveSlab;
    private final MemoryRegion sendSlab;
    private final CmListener listener;
    private final ReceiveWorkRequests repost = new ReceiveWorkRequests(1);
    private final WorkCompletionArray wcs = new WorkCompletionArray(32);
    private final Map<Integer, CmConnection> byQpNum = new ConcurrentHashMap<>();
    private final int initiate;
    private final int messageSize;
    private final Map<Integer, Integer> replies = new ConcurrentHashMap<>();
    int accepted;
    int received;
    int answered;
    int disconnected;
    int errorCompletions;

    SrqEchoServer(Context ctx, InetSocketAddress address) throws VerbsException {
        this(ctx, address, 0, 0);
    }

    SrqEchoServer(Context ctx, InetSocketAddress address, int initiate, int messageSize) throws VerbsException {
        this.initiate = initiate;
        this.messageSize = messageSize;
        pd = ctx.allocPd();
        cq = ctx.createCq(8192, null);
        srq = pd.createSrq(new SrqAttributes(BUFFERS, 1, 0));
        receiveSlab = pd.allocateRegistered((long) BUFFER * BUFFERS, EnumSet.of(AccessFlag.LOCAL_WRITE));
        sendSlab = pd.allocateRegistered((long) BUFFER * BUFFERS, EnumSet.of(AccessFlag.LOCAL_WRITE));
        try (ReceiveWorkRequests wrs = new ReceiveWorkRequests(BUFFERS)) {
            for (int i = 0; i < BUFFERS; i++) {
                wrs.set(i, RECV | i, receiveSlab.address() + (long) i * BUFFER, BUFFER, receiveSlab.lkey());
            }
            srq.postReceive(wrs, BUFFERS);
        }
        listener = ctx.listen(address, 64);
    }

    InetSocketAddress address() {
        return listener.localAddress();
    }

    /** Serves until {@code done} is true or the deadline passes. */
    void serveUntil(BooleanSupplier done, Duration limit) throws VerbsException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!done.getAsBoolean() && System.nanoTime() < deadline) {
            Optional<CmEvent> e = listener.nextEvent(Duration.ofMillis(1));
            if (e.isPresent()) {
                handle(e.get());
            }
            int n = cq.poll(wcs);
            for (int i = 0; i < n; i++) {
                completion(i);
            }
        }
    }

    private void handle(CmEvent e) throws VerbsException {
        if (e.type() == CmEventType.CONNECT_REQUEST) {
            QueuePair qp = pd.createQp(QpInitAttributes.rcOnSrq(cq, srq, 1024));
            CmConnection c = e.request().accept(qp);
            byQpNum.put(qp.qpNum(), c);
            accepted++;
        } else if (e.type() == CmEventType.ESTABLISHED && e.connection() != null && initiate > 0) {
            CmConnection c = e.connection();
            for (int i = 0; i < initiate; i++) {
                c.qp().postSend(i, sendSlab, 0, messageSize, null);
            }
        } else if (e.type() == CmEventType.DISCONNECTED && e.connection() != null) {
            CmConnection c = e.connection();
            byQpNum.remove(c.qp().qpNum());
            QueuePair qp = c.qp();
            c.close();
            qp.close();
            disconnected++;
        }
    }

    private void completion(int i) throws VerbsException {
        if (!wcs.isSuccess(i)) {
            errorCompletions++;
            return;
        }
        long wrId = wcs.wrId(i);
        if ((wrId & RECV) == 0) {
            return; // a send of ours completed
        }
        int buffer = (int) (wrId & ~RECV);
        int length = wcs.byteLen(i);
        received++;
        CmConnection c = byQpNum.get(wcs.qpNum(i));
        if (c != null && initiate > 0) {
            if (replies.merge(wcs.qpNum(i), 1, Integer::sum) == initiate) {
                c.disconnect(); // all replies in: the server ends the connection, as cmatose's does
            }
        } else if (c != null) {
            MemorySegment.copy(receiveSlab.segment(), (long) buffer * BUFFER, sendSlab.segment(), (long) buffer * BUFFER,
                    length);
            c.qp().postSend(buffer, sendSlab, (long) buffer * BUFFER, length, null);
            answered++;
        }
        repost.set(0, wrId, receiveSlab.address() + (long) buffer * BUFFER, BUFFER, receiveSlab.lkey());
        srq.postReceive(repost, 1);
    }

    @Override
    public void close() throws VerbsException {
        repost.close();
        wcs.close();
        listener.close();  // its connections first
        pd.close();        // QPs, SRQ, MRs
        cq.close();
    }
}
