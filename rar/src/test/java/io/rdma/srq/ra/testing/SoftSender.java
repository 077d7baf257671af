package io.rdma.srq.ra.testing;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.WorkCompletionArray;

import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.time.Duration;

/** A peer on its own soft context: one RC QP connected over the soft rdma_cm, sending messages. */
public final class SoftSender implements AutoCloseable {
    private static final int DEPTH = 64;
    private final Context ctx;
    private final CompletionQueue cq;
    private final QueuePair qp;
    private final MemoryRegion mr;
    private final CmConnection connection;
    private final WorkCompletionArray wcs = new WorkCompletionArray(DEPTH);
    private final int slot;
    private long sent;
    private int inFlight;
    /** Send completions with an error status. */
    public int sendErrors;
    /** Send completions with SUCCESS: messages the receiver acknowledged. */
    public int acknowledged;

    /**
     * @param to           the listener's address
     * @param messageBytes the largest message
     * @throws VerbsException when the connect fails
     */
    public SoftSender(InetSocketAddress to, int messageBytes) throws VerbsException {
        this("soft_rxe0", to, messageBytes, new byte[0]);
    }

    /**
     * @param device       the soft device the sender is on (its address: soft_rxe0 10.77.1.1,
     *                     soft_mlx5_0 10.77.1.2, soft_efa0 10.77.1.3)
     * @param to           the listener's address
     * @param messageBytes the largest message
     * @param privateData  what the connect request carries (a token, or nothing)
     * @throws VerbsException when the connect fails; the sender's objects are closed then
     */
    public SoftSender(String device, InetSocketAddress to, int messageBytes, byte[] privateData) throws VerbsException {
        ctx = Verbs.provider(Verbs.SOFT).open(device);
        slot = Math.max(8, messageBytes);
        try {
            ProtectionDomain pd = ctx.allocPd();
            cq = ctx.createCq(DEPTH * 2, null);
            qp = pd.createQp(QpInitAttributes.builder(QpInitAttributes.QpType.RC).cq(cq)
                    .maxSendWr(DEPTH).maxRecvWr(1).maxRecvSge(1).build());
            // one buffer per send-queue slot: a buffer is reused only after its send completed
            mr = pd.allocateRegistered((long) slot * DEPTH, java.util.EnumSet.of(AccessFlag.LOCAL_WRITE));
            connection = ctx.connect(qp, to, Duration.ofSeconds(5), privateData);
        } catch (RuntimeException e) {
            wcs.close();
            ctx.close();
            throw e;
        }
    }

    /** @return bytes this sender registered (its send slots) */
    public long registeredBytes() {
        return mr.length();
    }

    /** @return the sender's QP number (the receiver's src_qp) */
    public int qpNum() {
        return qp.qpNum();
    }

    /**
     * Sends one message whose first 8 bytes are {@code seq}, waiting for send-queue room.
     *
     * @param seq    a sequence number written into the message
     * @param length message length, ≥ 8
     * @param imm    immediate data or null
     * @throws VerbsException on a verbs error
     */
    public void send(long seq, int length, Integer imm) throws VerbsException {
        while (inFlight >= DEPTH) {
            reap();
        }
        long offset = (sent++ % DEPTH) * slot;
        mr.segment().set(ValueLayout.JAVA_LONG_UNALIGNED, offset, seq);
        qp.postSend(seq, mr, offset, length, imm);
        inFlight++;
    }

    private void reap() throws VerbsException {
        int n = cq.poll(wcs);
        for (int i = 0; i < n; i++) {
            if (!wcs.isSuccess(i)) {
                sendErrors++;
            } else {
                acknowledged++;
            }
        }
        inFlight -= n;
        if (n == 0) {
            Thread.onSpinWait();
        }
    }

    /**
     * Waits for every send to complete.
     *
     * @param timeout the longest wait
     * @throws VerbsException on a verbs error
     */
    public void drain(Duration timeout) throws VerbsException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (inFlight > 0 && System.nanoTime() < deadline) {
            reap();
        }
    }

    @Override
    public void close() throws VerbsException {
        wcs.close();
        connection.close();
        ctx.close();
    }
}
