package io.rdma.srq.verbs.fabric;

import io.rdma.srq.api.AsyncEventType;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.api.WcStatus;
import io.rdma.srq.verbs.ConnectionParameters;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.RcEndpoint;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.ffi.fabric.Fabric;
import io.rdma.srq.verbs.ffi.fabric.fi_ep_attr;
import io.rdma.srq.verbs.ffi.fabric.fi_info;
import io.rdma.srq.verbs.ffi.fabric.fi_tx_attr;
import io.rdma.srq.verbs.spi.ResourceBase;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * An RC QP as a libfabric MSG endpoint (fi_endpoint(3)). The endpoint needs the fi_info of the
 * connection it serves — the peer's address to connect to, or the connection request to accept —
 * so the QP is created empty (as a QP in RESET) and its endpoint opened when it is connected
 * ({@link #realize}); until then a send fails with EINVAL.
 *
 * <p>The endpoint binds a CQ of its own for each of the QP's CQs ({@link FabricCompletionQueue}
 * members: FI_TRANSMIT on the send CQ's, FI_RECV on the receive CQ's; one bound for both when the
 * two are one CQ), the SRQ's shared receive context, and an EQ. Sends are FI_DELIVERY_COMPLETE, so a
 * send completes when the peer has the message, as an RC send completes on the peer's ACK. Each send
 * takes a slot of {@code max_send_wr} (ENOMEM when all are taken, as ibv_post_send(3)); the slot is
 * the operation context, so the completion gives back the wr_id; slots still taken when the
 * endpoint closes complete with IBV_WC_WR_FLUSH_ERR.
 *
 * <p>To ERROR ({@link #moveToError}): fi_shutdown(3), sends from then on complete with
 * IBV_WC_WR_FLUSH_ERR, and a QP on an SRQ raises IBV_EVENT_QP_LAST_WQE_REACHED (its endpoint takes
 * no more receives from the shared context once shut down). Manual RC connection
 * ({@link #localEndpoint}, {@link #connect(int, int, RcEndpoint)}) is EOPNOTSUPP: a MSG endpoint
 * connects only through its CM.
 */
final class FabricQueuePair extends ResourceBase implements QueuePair {
    private static final long EAGAIN_WAIT_NANOS = 1_000_000_000L;
    /**
     * Sends complete when the peer has the message (FI_DELIVERY_COMPLETE, as an RC send on its ACK):
     * the default. {@code -Dio.rdma.srq.fabric.deliveryComplete=false} makes them complete when
     * libfabric has handed them to the socket (its default, FI_TRANSMIT_COMPLETE): one transfer less
     * per message, but a send counted complete can still be lost with its connection.
     */
    static final boolean DELIVERY_COMPLETE = Boolean.parseBoolean(
            System.getProperty("io.rdma.srq.fabric.deliveryComplete", "true"));

    private final FabricContext context;
    private final FabricProtectionDomain pd;
    private final FabricCompletionQueue sendCq;
    private final FabricCompletionQueue recvCq;
    private final FabricSharedReceiveQueue srq;
    private final int maxSendWr;
    private final int qpNum;
    private final Object sendLock = new Object();
    // guarded by sendLock
    private final long[] slotWrId;
    private final boolean[] slotUsed;
    private int outstanding;
    private int nextSlot;
    private volatile boolean error;
    // set once by realize, under this
    private volatile MemorySegment ep;
    private volatile long rawEp;
    private FabricEq eq;
    private MemorySegment info;
    private final List<FabricCompletionQueue.Member> members = new ArrayList<>();
    private volatile ConnectionParameters parameters = ConnectionParameters.RDMA_CM_DEFAULTS;

    private FabricQueuePair(FabricProtectionDomain pd, FabricCompletionQueue sendCq, FabricCompletionQueue recvCq,
                            FabricSharedReceiveQueue srq, int maxSendWr) {
        super(pd, "QP on " + pd.fabricContext().deviceName(), "ibv_destroy_qp",
                srq == null ? new ResourceBase[] {sendCq, recvCq} : new ResourceBase[] {sendCq, recvCq, srq});
        this.context = pd.fabricContext();
        this.pd = pd;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        this.srq = srq;
        this.maxSendWr = maxSendWr;
        this.slotWrId = new long[maxSendWr];
        this.slotUsed = new boolean[maxSendWr];
        this.qpNum = context.nextNumber();
    }

    static FabricQueuePair create(FabricProtectionDomain pd, QpInitAttributes init) {
        FabricContext context = pd.fabricContext();
        if (init.type() != QpInitAttributes.QpType.RC) {
            throw new VerbsException("ibv_create_qp", Errno.EOPNOTSUPP, "a libfabric MSG endpoint is an RC QP; "
                    + init.type() + " is not offered");
        }
        FabricCompletionQueue send = cqOf(context, init.sendCq(), "send_cq");
        FabricCompletionQueue recv = cqOf(context, init.recvCq(), "recv_cq");
        FabricSharedReceiveQueue srq = null;
        if (init.srq() != null) {
            if (!(init.srq() instanceof FabricSharedReceiveQueue s) || s.pd() != pd) {
                throw new VerbsException("ibv_create_qp", Errno.EINVAL, "the SRQ is not one of " + pd.kind());
            }
            srq = s;
        }
        int max = context.queryDevice().maxQpWr();
        if (init.maxSendWr() < 1 || init.maxSendWr() > max) {
            throw new VerbsException("ibv_create_qp", Errno.EINVAL, "max_send_wr must be in 1.." + max + ", got "
                    + init.maxSendWr());
        }
        FabricSharedReceiveQueue onSrq = srq;
        return pd.openChild(() -> new FabricQueuePair(pd, send, recv, onSrq, init.maxSendWr()), send, recv, onSrq);
    }

    private static FabricCompletionQueue cqOf(FabricContext context, Object cq, String which) {
        if (!(cq instanceof FabricCompletionQueue c) || c.fabricContext() != context) {
            throw new VerbsException("ibv_create_qp", Errno.EINVAL, which + " is not a CQ of " + context.kind());
        }
        return c;
    }

    FabricContext fabricContext() {
        return context;
    }

    @Override
    public int qpNum() {
        return qpNum;
    }

    @Override
    public SharedReceiveQueue srq() {
        return srq;
    }

    /**
     * Opens the endpoint for {@code connectionInfo} and binds it (EQ, CQ members, shared receive
     * context), enabled: ready for fi_connect or fi_accept.
     *
     * @param connectionInfo the fi_info of the peer (connect) or of the connection request (accept);
     *                       the QP frees it at its destroy
     * @param cm             the EQ its connection events go to; the QP holds a reference (taken here)
     * @param fabric         the connection's parameters, kept for {@link #queryConnectionParameters}
     * @return the endpoint (struct fid_ep *)
     * @throws VerbsException EINVAL if already connected, or libfabric's errno; nothing is left bound
     */
    MemorySegment realize(MemorySegment connectionInfo, FabricEq cm, ConnectionParameters fabric) {
        return whileOpen(() -> {
            synchronized (this) {
                return realizeOpen(connectionInfo, cm, fabric);
            }
        });
    }

    private MemorySegment realizeOpen(MemorySegment connectionInfo, FabricEq cm, ConnectionParameters fabric) {
        if (ep != null) {
            throw new VerbsException("rdma_connect", Errno.EINVAL, kind() + " is connected already");
        }
        MemorySegment i = connectionInfo.reinterpret(fi_info.sizeof());
        if (srq != null) {
            fi_ep_attr.rx_ctx_cnt(fi_info.ep_attr(i).reinterpret(fi_ep_attr.sizeof()), Fabric.FI_SHARED_CONTEXT());
        }
        MemorySegment tx = fi_info.tx_attr(i).reinterpret(fi_tx_attr.sizeof());
        if (DELIVERY_COMPLETE && !context.sendCompletesOnAck()) {
            fi_tx_attr.op_flags(tx, fi_tx_attr.op_flags(tx) | Fabric.FI_DELIVERY_COMPLETE());
        }
        MemorySegment out = scope().allocate(ValueLayout.ADDRESS);
        FabricOps.check("fi_endpoint", FabricOps.endpoint(context.domain(), i, out, MemorySegment.NULL));
        long raw = out.get(ValueLayout.ADDRESS, 0).address();
        MemorySegment endpoint = MemorySegment.ofAddress(raw).reinterpret(scope(), null);
        try {
            FabricOps.check("fi_ep_bind eq", FabricOps.bind(endpoint, cm.handle(), 0));
            if (sendCq == recvCq) {
                bind(endpoint, sendCq.open(this, true, true), Fabric.FI_TRANSMIT() | Fabric.FI_RECV());
            } else {
                bind(endpoint, sendCq.open(this, true, false), Fabric.FI_TRANSMIT());
                bind(endpoint, recvCq.open(this, false, true), Fabric.FI_RECV());
            }
            if (srq != null) {
                FabricOps.check("fi_ep_bind srx", FabricOps.bind(endpoint, srq.handle(), 0));
            }
            FabricOps.check("fi_enable", FabricOps.enable(endpoint));
        } catch (RuntimeException e) {
            FabricOps.close(MemorySegment.ofAddress(raw));
            closeMembers();
            throw e;
        }
        cm.retain();
        eq = cm;
        info = i;
        rawEp = raw;
        ep = endpoint;
        parameters = fabric;
        return endpoint;
    }

    private void bind(MemorySegment endpoint, FabricCompletionQueue.Member m, long flags) {
        members.add(m);
        FabricOps.check("fi_ep_bind cq", FabricOps.bind(endpoint, m.cq, flags));
    }

    private void closeMembers() {
        for (FabricCompletionQueue.Member m : members) {
            (m.sends ? sendCq : recvCq).close(m);
        }
        members.clear();
    }

    /** {@return the endpoint, or null before {@link #realize}} */
    MemorySegment endpoint() {
        return ep;
    }

    /** {@return the endpoint's address: the fid its EQ events name, 0 before {@link #realize}} */
    long fid() {
        return rawEp;
    }

    @Override
    public RcEndpoint localEndpoint(int port, int gidIndex) {
        throw manualRc();
    }

    @Override
    public void connect(int port, int gidIndex, RcEndpoint remote) {
        throw manualRc();
    }

    @Override
    public void connect(int port, int gidIndex, RcEndpoint remote, int rnrRetry) {
        throw manualRc();
    }

    private VerbsException manualRc() {
        ensureOpen();
        return new VerbsException("ibv_modify_qp", Errno.EOPNOTSUPP, "a libfabric MSG endpoint connects only through"
                + " its CM (fi_connect / fi_accept): connect with rdma_cm semantics (Context.connect, CmRequest.accept)");
    }

    /**
     * ibv_post_send(3) of one SEND (with imm_data: fi_senddata(3), the imm_data as the CQ data's low
     * 32 bits; without: fi_send(3)).
     *
     * @throws VerbsException EINVAL for a region not of this PD or bytes outside it, or a QP not
     *                        connected; ENOMEM with max_send_wr sends outstanding (or libfabric's
     *                        queue full for a second); libfabric's errno otherwise
     */
    @Override
    public void postSend(long wrId, MemoryRegion mr, long offset, int length, Integer imm) {
        ensureOpen();
        if (!(mr instanceof FabricMemoryRegion region) || length < 0 || offset < 0
                || pd.region(region.lkey(), region.address() + offset, length) == null) {
            throw new VerbsException("ibv_post_send", Errno.EINVAL, "the SGE [offset " + offset + ", length " + length
                    + "] is not inside a memory region of " + pd.kind());
        }
        MemorySegment buffer = MemorySegment.ofAddress(region.address() + offset);
        long deadline = System.nanoTime() + EAGAIN_WAIT_NANOS;
        while (true) {
            long rc;
            if (error) { // outside sendLock: the CQ's lock is taken before it, never after
                sendCq.add(wrId, WcStatus.WR_FLUSH_ERR, FabricCompletionQueue.OPCODE_SEND, qpNum);
                return;
            }
            synchronized (sendLock) {
                MemorySegment endpoint = ep;
                if (endpoint == null) {
                    throw new VerbsException("ibv_post_send", Errno.EINVAL, kind() + " is not connected");
                }
                if (outstanding == maxSendWr) {
                    throw new VerbsException("ibv_post_send", Errno.ENOMEM, kind() + " has max_send_wr " + maxSendWr
                            + " sends outstanding");
                }
                int slot = freeSlot();
                MemorySegment context = MemorySegment.ofAddress(slot + 1L);
                rc = imm == null
                        ? FabricOps.send(endpoint, buffer, length, region.desc(), 0, context)
                        : FabricOps.senddata(endpoint, buffer, length, region.desc(), Integer.toUnsignedLong(imm),
                        0, context);
                if (rc == 0) {
                    slotWrId[slot] = wrId;
                    slotUsed[slot] = true;
                    outstanding++;
                    return;
                }
            }
            if (rc != -Fabric.FI_EAGAIN()) {
                FabricOps.check(imm == null ? "fi_send" : "fi_senddata", rc);
            }
            if (System.nanoTime() - deadline > 0) {
                throw new VerbsException("ibv_post_send", Errno.ENOMEM, kind()
                        + ": libfabric's send queue stayed full (FI_EAGAIN) for 1 s");
            }
            sendCq.ready(); // makes libfabric progress the endpoint
            LockSupport.parkNanos(10_000);
        }
    }

    private int freeSlot() {
        for (int k = 0; k < maxSendWr; k++) {
            int slot = (nextSlot + k) % maxSendWr;
            if (!slotUsed[slot]) {
                nextSlot = (slot + 1) % maxSendWr;
                return slot;
            }
        }
        throw new IllegalStateException("no free send slot with " + outstanding + " outstanding");
    }

    /**
     * A send of this QP completed.
     *
     * @param context its operation context (slot + 1)
     * @return its wr_id
     */
    long sendCompleted(long context) {
        synchronized (sendLock) {
            int slot = (int) context - 1;
            if (slot < 0 || slot >= maxSendWr || !slotUsed[slot]) {
                return 0;
            }
            slotUsed[slot] = false;
            outstanding--;
            return slotWrId[slot];
        }
    }

    /** Reads this QP's CQs once into their rings: libfabric progresses the endpoint (FI_PROGRESS_MANUAL). */
    void progress() {
        sendCq.tryProgress(); // unless a poller reads them anyway (or sleeps in fi_wait for them)
        if (recvCq != sendCq) {
            recvCq.tryProgress();
        }
    }

    FabricCompletionQueue sendCq() {
        return sendCq;
    }

    FabricCompletionQueue recvCq() {
        return recvCq;
    }

    /** A receive of this QP completed: the SRQ counts it (and may raise its limit event). */
    void received() {
        if (srq != null) {
            srq.consumed();
        }
    }

    /** Completes every send still outstanding with IBV_WC_WR_FLUSH_ERR on {@code cq}. */
    void flushSends(FabricCompletionQueue cq) {
        if (cq != sendCq) {
            return;
        }
        synchronized (sendLock) {
            for (int k = 0; k < maxSendWr; k++) {
                int slot = (nextSlot + k) % maxSendWr;
                if (slotUsed[slot]) {
                    slotUsed[slot] = false;
                    outstanding--;
                    cq.add(slotWrId[slot], WcStatus.WR_FLUSH_ERR, FabricCompletionQueue.OPCODE_SEND, qpNum);
                }
            }
        }
    }

    @Override
    public void moveToError() {
        ensureOpen();
        error = true;
        MemorySegment endpoint = endpoint();
        if (endpoint != null) {
            FabricOps.shutdown(endpoint, 0); // -FI_ENOTCONN when the peer is gone already: the QP is in ERROR either way
        }
        if (srq != null) {
            context.queueEvent(AsyncEventType.QP_LAST_WQE_REACHED, this);
        }
    }

    /** {@return whether the QP is in ERROR} */
    boolean inError() {
        return error;
    }

    @Override
    public ConnectionParameters queryConnectionParameters() {
        ensureOpen();
        return parameters;
    }

    @Override
    protected synchronized void destroy() {
        if (rawEp != 0) {
            FabricOps.close(MemorySegment.ofAddress(rawEp));
        }
        closeMembers();
        if (eq != null) {
            eq.release();
        }
        if (info != null) {
            Fabric.fi_freeinfo(info);
        }
    }
}
