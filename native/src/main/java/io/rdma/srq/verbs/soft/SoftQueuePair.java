package io.rdma.srq.verbs.soft;

import io.rdma.srq.api.AsyncEventType;
import io.rdma.srq.api.DeviceAttributes;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.api.WcStatus;
import io.rdma.srq.verbs.ConnectionParameters;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.RcEndpoint;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.NetworkOrder;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.OptionalInt;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * {@link QueuePair} of a soft device: an RC QP on the in-JVM fabric.
 *
 * <p>A SEND takes the oldest receive of the peer QP's SRQ, copies the message from the sender's MR
 * into the receive SGEs (through the MR the SGE's lkey names), and completes twice: a receive
 * completion on the peer's receive CQ (IBV_WC_RECV, byte_len, imm_data in network order with
 * IBV_WC_WITH_IMM, qp_num = the receiver, src_qp per profile), then a send completion (IBV_WC_SEND)
 * on the sender's send CQ. Completions of one QP keep the order of its WRs.
 *
 * <p>Errors, as rxe reports them (rxe_resp.c, rxe_comp.c), each moving the QPs involved to ERROR
 * (later and waiting sends of a QP in ERROR complete with {@code WR_FLUSH_ERR}):
 * <ul>
 *   <li>message longer than the receive SGEs: receive rxe {@code LOC_QP_OP_ERR}, mlx5
 *       {@code LOC_LEN_ERR}; send rxe {@code REM_OP_ERR}, mlx5 {@code REM_INV_REQ_ERR} (rxe values
 *       measured on rxe0);</li>
 *   <li>receive SGE with an lkey that names no open MR of the receiving QP's PD, an MR without
 *       IBV_ACCESS_LOCAL_WRITE, or [addr, addr + length) not inside the MR: receive rxe
 *       {@code LOC_QP_OP_ERR}, mlx5 {@code LOC_PROT_ERR}; send {@code REM_OP_ERR} (driver note 20);</li>
 *   <li>sender MR deregistered or of another PD: send rxe {@code LOC_QP_OP_ERR}, mlx5
 *       {@code LOC_PROT_ERR}; only the sender goes to ERROR, the peer's receive stays posted;</li>
 *   <li>SRQ empty (receiver not ready): the send waits, as RNR NAKs are retried; rnr_retry 7 waits
 *       until a receive is posted, rnr_retry n &lt; 7 gives up after n × 0.64 ms (min_rnr_timer 12)
 *       with {@code RNR_RETRY_EXC_ERR}, 0 at once;</li>
 *   <li>peer gone, not connected back to this QP, in ERROR, or its receive CQ overrun: no
 *       acknowledgement ever comes, so the send ends in {@code RETRY_EXC_ERR} (at once: the soft
 *       fabric does not wait out the transport timeout of a real link).</li>
 * </ul>
 * A QP connected to a QP with its own receive queue (no SRQ) always meets RNR: the API has no way to
 * post to a QP's own receive queue. Destroying a QP drops its waiting sends without completions and
 * leaves the receives of its SRQ in place (no WR_FLUSH_ERR: SRQ receives belong to the SRQ).
 *
 * <p>Thread-safe: sends of one QP are serialized by a lock; receives can be posted and CQs polled
 * from other threads at the same time.
 */
final class SoftQueuePair extends SoftResource implements QueuePair {
    private static final int RESET = 0;
    private static final int RTS = 1;
    private static final int ERROR = 2;
    private static final int DESTROYED = 3;
    private static final boolean SENT = false;
    private static final boolean RNR = true;
    private static final int MAX_QPN = 0xFFFFFF;

    /** A receive WQE taken from an SRQ: scratch of the sending QP, used under its send lock. */
    static final class Wqe {
        long wrId;
        int numSge;
        long[] addr = new long[32];
        int[] length = new int[32];
        int[] lkey = new int[32];

        void ensure(int n) {
            if (n > addr.length) {
                addr = new long[n];
                length = new int[n];
                lkey = new int[n];
            }
        }
    }

    private static final class PendingSend {
        final long wrId;
        final SoftMemoryRegion mr;
        final long offset;
        final int length;
        final boolean hasImm;
        final int imm;
        boolean timerArmed;

        PendingSend(long wrId, SoftMemoryRegion mr, long offset, int length, boolean hasImm, int imm) {
            this.wrId = wrId;
            this.mr = mr;
            this.offset = offset;
            this.length = length;
            this.hasImm = hasImm;
            this.imm = imm;
        }
    }

    private final SoftContext context;
    private final SoftProtectionDomain pd;
    private final SoftDevice device;
    private final SoftProfile profile;
    private final DriverQuirks quirks;
    private final QpInitAttributes.QpType type;
    private final SoftCompletionQueue sendCq;
    private final SoftCompletionQueue recvCq;
    private final SoftSharedReceiveQueue srq;
    private final int maxSendWr;
    private final int qpNum;
    private final int psn = ThreadLocalRandom.current().nextInt(1 << 24);
    private final AtomicInteger state = new AtomicInteger(RESET);

    private final ReentrantLock sendLock = new ReentrantLock();
    // written under sendLock before state becomes RTS, read after reading state
    private volatile int remoteQpn = -1;
    private volatile byte[] remoteGid;
    private int rnrRetry;
    /** What {@link #queryConnectionParameters} reports: set with the state RTS, all fields present. */
    private volatile ConnectionParameters inForce = new ConnectionParameters(OptionalInt.of(0), OptionalInt.of(0), 0, 0);
    // guarded by sendLock
    private final ArrayDeque<PendingSend> pending = new ArrayDeque<>();
    private final Wqe wqe = new Wqe();
    private SoftQueuePair peer;
    private boolean waiting;
    private SoftSharedReceiveQueue waitingOn;
    private boolean errorHandled;
    private volatile boolean retryRequested;

    private SoftQueuePair(SoftProtectionDomain pd, QpInitAttributes init, SoftCompletionQueue sendCq,
                          SoftCompletionQueue recvCq, SoftSharedReceiveQueue srq, SoftResource... uses) {
        super(pd, init.type() + " QP on " + pd.softContext().deviceName(), "ibv_destroy_qp", uses);
        this.context = pd.softContext();
        this.pd = pd;
        this.device = context.device();
        this.profile = context.profile();
        this.quirks = profile.quirks();
        this.type = init.type();
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        this.srq = srq;
        this.maxSendWr = init.maxSendWr();
        this.qpNum = SoftFabric.newQpNum(this);
    }

    static SoftQueuePair create(SoftProtectionDomain pd, QpInitAttributes init) throws VerbsException {
        SoftContext ctx = pd.softContext();
        SoftProfile profile = ctx.profile();
        DeviceAttributes dev = profile.deviceAttributes();
        if (!(init.sendCq() instanceof SoftCompletionQueue scq) || scq.softContext() != ctx) {
            throw new VerbsException("ibv_create_qp", Errno.EINVAL, "the send CQ is not one of " + ctx.kind());
        }
        if (!(init.recvCq() instanceof SoftCompletionQueue rcq) || rcq.softContext() != ctx) {
            throw new VerbsException("ibv_create_qp", Errno.EINVAL, "the receive CQ is not one of " + ctx.kind());
        }
        SoftSharedReceiveQueue srq = null;
        if (init.srq() != null) {
            if (!profile.hasSrq()) {
                throw new VerbsException("ibv_create_qp", Errno.EINVAL, ctx.deviceName()
                        + " has no SRQ: a QP with an SRQ is invalid (EFA)");
            }
            if (!(init.srq() instanceof SoftSharedReceiveQueue s) || s.softContext() != ctx) {
                throw new VerbsException("ibv_create_qp", Errno.EINVAL, "the SRQ is not one of " + ctx.kind());
            }
            if (s.isXrc()) {
                throw new VerbsException("ibv_create_qp", Errno.EINVAL, "an XRC SRQ serves XRC target QPs only");
            }
            s.checkOpen();
            srq = s;
        }
        if (!profile.quirks().hasRc() && init.type() != QpInitAttributes.QpType.UD) {
            throw new VerbsException("ibv_create_qp", Errno.EOPNOTSUPP, ctx.deviceName() + " has no "
                    + init.type() + " QPs (EFA: UD and SRD only)");
        }
        if (init.maxSendWr() > dev.maxQpWr() || init.maxSendSge() > dev.maxSge()
                || (srq == null && (init.maxRecvWr() > dev.maxQpWr() || init.maxRecvSge() > dev.maxSge()))) {
            throw new VerbsException("ibv_create_qp", Errno.EINVAL, "capacities above the device limits (max_qp_wr "
                    + dev.maxQpWr() + ", max_sge " + dev.maxSge() + "): " + init);
        }
        scq.checkOpen();
        rcq.checkOpen();
        return srq == null ? new SoftQueuePair(pd, init, scq, rcq, null, scq, rcq)
                : new SoftQueuePair(pd, init, scq, rcq, srq, scq, rcq, srq);
    }

    SoftContext softContext() {
        return context;
    }

    /** {@return whether this is an RC QP in RESET, the state connect starts from} */
    boolean isRcInReset() {
        return type == QpInitAttributes.QpType.RC && state.get() == RESET;
    }

    @Override
    public int qpNum() {
        checkOpen();
        return qpNum;
    }

    @Override
    public SharedReceiveQueue srq() {
        checkOpen();
        return srq;
    }

    /**
     * {@return qp_num, the PSN chosen at creation, LID 0 (RoCE) and the GID}
     *
     * @param port     1
     * @param gidIndex any index below gid_tbl_len (see {@link SoftDevice} for the GIDs)
     * @throws VerbsException {@code EINVAL} for a port or GID index out of range
     */
    @Override
    public RcEndpoint localEndpoint(int port, int gidIndex) throws VerbsException {
        checkOpen();
        return new RcEndpoint(qpNum, psn, 0, context.queryGid(port, gidIndex));
    }

    @Override
    public void connect(int port, int gidIndex, RcEndpoint remote) throws VerbsException {
        connect(port, gidIndex, remote, 7);
    }

    /**
     * RESET → RTS towards {@code remote}. The peer need not exist yet; it is looked up by QP number on
     * the first send and must carry one of its device's GIDs.
     *
     * @throws VerbsException {@code EINVAL} for rnr_retry outside 0..7, a bad port or GID index, a
     *                        QP number above 24 bits, or a QP not in RESET (connect once);
     *                        {@code EOPNOTSUPP} for UC and UD QPs (the soft fabric carries RC only)
     */
    @Override
    public void connect(int port, int gidIndex, RcEndpoint remote, int rnrRetry) throws VerbsException {
        checkOpen();
        if (rnrRetry < 0 || rnrRetry > 7) {
            throw new VerbsException("ibv_modify_qp", Errno.EINVAL, "rnr_retry must be in 0..7, got " + rnrRetry);
        }
        connect(port, gidIndex, remote, new ConnectionParameters(OptionalInt.of(0), OptionalInt.of(14), 7, rnrRetry));
    }

    /**
     * The ACK timeout exponent the soft rdma_cm gives a QP when none is asked for: what rdma_cm gives
     * rxe0's QPs on kernel 6.1 (ibv_query_qp in the lab, FabricSettingsConformanceTest): the RoCE
     * path's packet life time (CMA_IBOE_PACKET_LIFETIME 18) plus one — 2.15 s.
     */
    static final int CM_ACK_TIMEOUT = 19;

    /**
     * RESET → RTS towards {@code remote} with the fabric settings of an rdma_cm connect or accept:
     * rnr_retry governs the RNR retries of this QP's sends; the traffic class (0 when rdma_cm's),
     * timeout ({@value #CM_ACK_TIMEOUT} when rdma_cm's) and retry_cnt are kept and reported by
     * {@link #queryConnectionParameters} — the soft fabric loses no packet, so it has nothing to time out.
     *
     * @throws VerbsException as {@link #connect(int, int, RcEndpoint, int)}
     */
    void connect(int port, int gidIndex, RcEndpoint remote, ConnectionParameters parameters) throws VerbsException {
        checkOpen();
        int rnrRetry = parameters.rnrRetryCount();
        ConnectionParameters resolved = new ConnectionParameters(OptionalInt.of(parameters.trafficClass().orElse(0)),
                OptionalInt.of(parameters.ackTimeout().orElse(CM_ACK_TIMEOUT)), parameters.retryCount(), rnrRetry);
        context.checkPort("ibv_modify_qp", port);
        int gids = profile.portAttributes().gidTblLen();
        if (gidIndex < 0 || gidIndex >= gids) {
            throw new VerbsException("ibv_modify_qp", Errno.EINVAL, "sgid_index must be in 0.." + (gids - 1)
                    + ", got " + gidIndex);
        }
        if (type != QpInitAttributes.QpType.RC) {
            throw new VerbsException("ibv_modify_qp", Errno.EOPNOTSUPP, "the soft fabric carries RC only, not " + type);
        }
        if (remote.qpNum() < 0 || remote.qpNum() > MAX_QPN) {
            throw new VerbsException("ibv_modify_qp", Errno.EINVAL, "dest_qp_num must be 24 bits, got " + remote.qpNum());
        }
        sendLock.lock();
        try {
            if (state.get() != RESET) {
                throw new VerbsException("ibv_modify_qp", Errno.EINVAL, kind() + " " + qpNum
                        + " to INIT: the QP is not in RESET");
            }
            this.remoteQpn = remote.qpNum();
            this.remoteGid = remote.gid();
            this.rnrRetry = rnrRetry;
            this.inForce = resolved;
            state.set(RTS);
        } finally {
            unlockSend();
        }
    }

    /**
     * ibv_post_send(3) of one signaled SEND / SEND_WITH_IMM.
     *
     * @throws VerbsException {@code EINVAL} for a range outside the MR, an MR of another provider, or a
     *                        QP not yet connected; {@code ENOMEM} when max_send_wr sends are waiting
     */
    @Override
    public void postSend(long wrId, MemoryRegion mr, long offset, int length, Integer imm) throws VerbsException {
        checkOpen();
        if (!(mr instanceof SoftMemoryRegion smr)) {
            throw new VerbsException("ibv_post_send", Errno.EINVAL, "the MR is not registered on a soft device");
        }
        // a closed MR is not refused here: its send completes with LOC_PROT_ERR, as a device reports a stale lkey
        if (offset < 0 || length < 0 || offset + length > smr.size()) {
            throw new VerbsException("ibv_post_send", Errno.EINVAL, "message [" + offset + ", +" + length
                    + ") outside the MR of " + smr.size() + " bytes");
        }
        boolean hasImm = imm != null;
        int immValue = hasImm ? imm : 0;
        sendLock.lock();
        try {
            switch (state.get()) {
                case RESET -> throw new VerbsException("ibv_post_send", Errno.EINVAL, kind() + " " + qpNum
                        + " is not connected (RESET, not RTS)");
                case ERROR -> {
                    toError(); // flushes what still waits first, if the peer's error is not handled yet
                    completeSend(wrId, WcStatus.WR_FLUSH_ERR, 0);
                    return;
                }
                case DESTROYED -> throw new IllegalStateException(kind() + " is closed");
                default -> {
                }
            }
            if (pending.size() >= maxSendWr) {
                throw new VerbsException("ibv_post_send", Errno.ENOMEM, kind() + " " + qpNum + ": the send queue is full ("
                        + pending.size() + " of max_send_wr " + maxSendWr + " waiting)");
            }
            if (!pending.isEmpty()) {
                pending.addLast(new PendingSend(wrId, smr, offset, length, hasImm, immValue));
                return;
            }
            if (transmit(wrId, smr, offset, length, hasImm, immValue) == RNR) {
                PendingSend p = new PendingSend(wrId, smr, offset, length, hasImm, immValue);
                pending.addFirst(p);
                rnrWait(p);
            }
        } finally {
            unlockSend();
        }
    }

    /**
     * One SEND on the wire, under the send lock.
     *
     * @return {@link #RNR} if the receiver has no receive posted, else {@link #SENT} (successfully or
     *         not: every other outcome has completed)
     */
    private boolean transmit(long wrId, SoftMemoryRegion mr, long offset, int length, boolean hasImm, int imm) {
        if (mr.isClosed() || mr.pd() != pd) {
            // the requester fails while it builds the packet: the peer sees nothing (driver note 20)
            completeSend(wrId, quirks.sendKeyError(), 0);
            toError();
            return SENT;
        }
        SoftQueuePair b = reachablePeer();
        if (b == null) {
            completeSend(wrId, WcStatus.RETRY_EXC_ERR, 0);
            toError();
            return SENT;
        }
        SoftSharedReceiveQueue q = b.srq;
        if (q == null || !q.consume(wqe)) {
            return RNR;
        }
        WcStatus recvError;
        WcStatus sendError;
        long room = 0;
        for (int i = 0; i < wqe.numSge; i++) {
            room += Integer.toUnsignedLong(wqe.length[i]);
        }
        if (length > room) {
            recvError = b.quirks.recvLengthError();
            sendError = b.quirks.sendLengthError();
        } else if (!scatter(b, mr, offset, length)) {
            recvError = b.quirks.recvProtectionError();
            sendError = WcStatus.REM_OP_ERR;
        } else {
            boolean delivered;
            try {
                delivered = b.recvCq.push(wqe.wrId, 0, SoftCompletionQueue.OPCODE_RECV, length,
                        hasImm ? NetworkOrder.swap32(imm) : 0, b.qpNum, b.quirks.rcSrcQpReported() ? qpNum : 0,
                        SoftCompletionQueue.FLAG_GRH | (hasImm ? SoftCompletionQueue.FLAG_WITH_IMM : 0), false);
            } catch (IllegalStateException closed) {
                delivered = false;
            }
            if (!delivered) {
                // the responder lost the completion and went to ERROR: no ACK ever comes
                b.errorFromPeer();
                completeSend(wrId, WcStatus.RETRY_EXC_ERR, 0);
                toError();
                return SENT;
            }
            completeSend(wrId, WcStatus.SUCCESS, length);
            return SENT;
        }
        try {
            b.recvCq.push(wqe.wrId, recvError.code(), SoftCompletionQueue.OPCODE_RECV, 0, 0, b.qpNum, 0, 0, false);
        } catch (IllegalStateException closed) {
            // the receiver is being torn down; its completion goes nowhere
        }
        b.errorFromPeer();
        completeSend(wrId, sendError, 0);
        toError();
        return SENT;
    }

    /**
     * Copies the message into the SGEs of {@link #wqe}, as rxe's copy_data does: each SGE the message
     * reaches (a zero-length one is skipped) must name, by its lkey, an open MR of the receiving QP's
     * PD with IBV_ACCESS_LOCAL_WRITE, and [addr, addr + bytes) must lie inside it; it is checked before
     * a byte is written there, so nothing outside a registered MR is ever touched. A check that fails
     * stops the copy (what the SGEs before it received stays, as on rxe).
     *
     * @return false on a protection error (driver note 20)
     */
    private boolean scatter(SoftQueuePair b, SoftMemoryRegion src, long offset, int length) {
        long remaining = length;
        long from = offset;
        try {
            for (int i = 0; i < wqe.numSge && remaining > 0; i++) {
                long room = Integer.toUnsignedLong(wqe.length[i]);
                if (room == 0) {
                    continue;
                }
                long chunk = Math.min(room, remaining);
                SoftMemoryRegion dst = b.device.lookup(wqe.lkey[i]);
                if (dst == null || dst.pd() != b.pd || !dst.localWrite() || dst.isClosed()) {
                    return false;
                }
                long at = wqe.addr[i] - dst.start();
                if (wqe.addr[i] < dst.start() || at > dst.size() - chunk) {
                    return false; // mr_check_range, written so that no sum can overflow
                }
                MemorySegment.copy(src.buffer(), from, dst.buffer(), at, chunk);
                from += chunk;
                remaining -= chunk;
            }
            return true;
        } catch (IllegalStateException | IndexOutOfBoundsException freed) {
            return false; // an MR was deregistered and its memory freed during the copy: the JVM checked
        }
    }

    /** {@return the connected peer if it would acknowledge this QP's packets, else null} */
    private SoftQueuePair reachablePeer() {
        SoftQueuePair b = peer;
        if (b == null || b.state.get() == DESTROYED) {
            b = SoftFabric.qp(remoteQpn);
            if (b == null || !b.device.ownsGid(remoteGid)) {
                peer = null;
                return null;
            }
            peer = b;
        }
        if (b.state.get() != RTS || b.remoteQpn != qpNum || !device.ownsGid(b.remoteGid)) {
            return null;
        }
        return b;
    }

    private void completeSend(long wrId, WcStatus status, int byteLen) {
        boolean kept;
        try {
            kept = sendCq.push(wrId, status.code(), SoftCompletionQueue.OPCODE_SEND, byteLen, 0, qpNum, 0, 0, false);
        } catch (IllegalStateException closed) {
            return; // the CQ is being closed with the QP (a context close)
        }
        if (!kept) {
            toError();
        }
    }

    /** The send at the head of the queue met an empty receive queue; under the send lock. */
    private void rnrWait(PendingSend p) {
        if (rnrRetry == 0) {
            pending.remove(p);
            completeSend(p.wrId, WcStatus.RNR_RETRY_EXC_ERR, 0);
            toError();
            return;
        }
        if (rnrRetry < 7 && !p.timerArmed) {
            p.timerArmed = true;
            SoftFabric.schedule(() -> rnrExpired(p), rnrRetry * SoftFabric.RNR_INTERVAL_NANOS);
        }
        if (!waiting) {
            SoftQueuePair b = peer;
            SoftSharedReceiveQueue q = b == null ? null : b.srq;
            if (q != null) {
                waiting = true;
                waitingOn = q;
                q.waiters.add(this);
                drainPending(); // a receive may have been posted before we were listed
            }
        }
    }

    private void rnrExpired(PendingSend p) {
        sendLock.lock();
        try {
            if (state.get() != RTS || pending.peekFirst() != p) {
                return;
            }
            pending.pollFirst();
            if (transmit(p.wrId, p.mr, p.offset, p.length, p.hasImm, p.imm) == RNR) {
                completeSend(p.wrId, WcStatus.RNR_RETRY_EXC_ERR, 0);
                toError();
            } else {
                drainPending();
            }
        } finally {
            unlockSend();
        }
    }

    /** Sends what waits, in order, until the receiver runs dry again; under the send lock. */
    private void drainPending() {
        while (state.get() == RTS) {
            PendingSend p = pending.pollFirst();
            if (p == null) {
                break;
            }
            if (transmit(p.wrId, p.mr, p.offset, p.length, p.hasImm, p.imm) == RNR) {
                pending.addFirst(p);
                rnrWait(p);
                return;
            }
        }
        if (pending.isEmpty()) {
            unwait();
        }
    }

    /**
     * Called by an SRQ this QP waits on after receives were posted; never blocks: if another thread
     * holds the send lock, that thread retries the waiting sends when it lets go (see
     * {@link #unlockSend()}), so a poster is never held up by a busy sender.
     */
    void receivesPosted() {
        retryRequested = true;
        if (sendLock.tryLock()) {
            unlockSend();
        }
    }

    /**
     * Releases the send lock, then serves a retry that {@link #receivesPosted()} requested while the
     * lock was held: the flag is read after the unlock, so a request is never lost.
     */
    private void unlockSend() {
        sendLock.unlock();
        if (sendLock.isHeldByCurrentThread()) {
            return; // a nested hold (a QP connected to itself): the outermost unlock serves retries
        }
        while (retryRequested && sendLock.tryLock()) {
            try {
                retryRequested = false;
                if (state.get() == RTS && !pending.isEmpty()) {
                    drainPending();
                }
            } finally {
                sendLock.unlock();
            }
        }
    }

    private void unwait() {
        if (waiting) {
            waitingOn.waiters.remove(this);
            waiting = false;
            waitingOn = null;
        }
    }

    /** {@return the settings given at connect (zeros before), as ibv_query_qp reports them} */
    @Override
    public ConnectionParameters queryConnectionParameters() {
        checkOpen();
        return inForce;
    }

    /**
     * ibv_modify_qp to IBV_QPS_ERR: as {@link #toError()}, and the senders waiting (RNR) on this QP's
     * SRQ try again at once, so the one sending to this QP fails with RETRY_EXC_ERR as on a wire
     * (a responder in ERROR acknowledges nothing).
     */
    @Override
    public void moveToError() {
        checkOpen();
        sendLock.lock();
        try {
            toError();
        } finally {
            unlockSend();
        }
        if (srq != null) {
            srq.wakeWaiters();
        }
    }

    /** Moves this QP to ERROR and flushes its waiting sends; under the send lock. */
    private void toError() {
        if (state.get() == DESTROYED) {
            return;
        }
        state.set(ERROR);
        if (errorHandled) {
            return;
        }
        errorHandled = true;
        PendingSend p;
        while ((p = pending.pollFirst()) != null) {
            completeSend(p.wrId, WcStatus.WR_FLUSH_ERR, 0);
        }
        unwait();
        if (srq != null && quirks.lastWqeReachedEvent()) {
            context.queueEvent(AsyncEventType.QP_LAST_WQE_REACHED, this);
        }
    }

    /** The peer (holding its own send lock) put this QP in ERROR; never blocks on this QP's lock. */
    private void errorFromPeer() {
        if (!state.compareAndSet(RTS, ERROR)) {
            return;
        }
        withSendLock(this::toError);
    }

    /** The peer this QP sends to was destroyed: the head send's retries run out. */
    private void peerLost() {
        withSendLock(() -> {
            if (state.get() == RTS && !pending.isEmpty()) {
                PendingSend p = pending.pollFirst();
                completeSend(p.wrId, WcStatus.RETRY_EXC_ERR, 0);
                toError();
            }
        });
    }

    /** Runs {@code action} under the send lock: now if it is free, else on the fabric thread. */
    private void withSendLock(Runnable action) {
        if (sendLock.tryLock()) {
            try {
                action.run();
            } finally {
                unlockSend();
            }
        } else {
            SoftFabric.schedule(() -> {
                sendLock.lock();
                try {
                    action.run();
                } finally {
                    unlockSend();
                }
            }, 0);
        }
    }

    @Override
    protected void release() {
        sendLock.lock();
        try {
            state.set(DESTROYED);
            pending.clear();
            unwait();
            peer = null;
        } finally {
            unlockSend();
        }
        if (quirks.destroyCleansCq()) {
            // mlx5_destroy_qp: __mlx5_cq_clean on the receive CQ, then the send CQ if it is another
            recvCq.clean(qpNum);
            if (sendCq != recvCq) {
                sendCq.clean(qpNum);
            }
        }
        SoftFabric.unregister(qpNum, this);
        for (SoftQueuePair w : SoftFabric.queuePairs()) {
            if (w.remoteQpn == qpNum) {
                w.peerLost();
            }
        }
    }
}
