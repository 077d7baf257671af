package io.rdma.srq.verbs.soft;

import io.rdma.srq.api.AsyncEventType;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CompletionChannel;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.WorkCompletionArray;
import io.rdma.srq.verbs.spi.ResourceBase;
import io.rdma.srq.verbs.spi.WcRing;


/**
 * {@link CompletionQueue} of a soft device: a ring of real {@code struct ibv_wc} entries in native
 * memory, so {@link #poll} is one or two bulk copies into the caller's {@link WorkCompletionArray}
 * and every reader of completions is the same code as on a real device.
 *
 * <p>Overrun (a completion arriving while {@link #cqe()} entries are unpolled): the completion is
 * lost, IBV_EVENT_CQ_ERR is queued on the context (once, until the CQ has room again), and the QP
 * whose completion was lost moves to the error state — rxe's rxe_cq_post returns EBUSY and raises
 * CQ_ERR, and its responder then moves the QP to ERROR (RESPST_ERR_CQ_OVERFLOW).
 *
 * <p>Notification (ibv_req_notify_cq(3)): armed for any completion, or for solicited and failed ones
 * only; the next such completion disarms the CQ and queues an event on its channel.
 */
final class SoftCompletionQueue extends SoftResource implements CompletionQueue {
    /** IBV_WC_SEND */
    static final int OPCODE_SEND = 0;
    /** IBV_WC_RECV */
    static final int OPCODE_RECV = 128;
    /** IBV_WC_GRH: RoCE receives always carry a GRH */
    static final int FLAG_GRH = 1;
    /** IBV_WC_WITH_IMM */
    static final int FLAG_WITH_IMM = WorkCompletionArray.WITH_IMM;

    private static final int FIRST_RING = 256;

    private static final int NONE = 0;
    private static final int ANY = 1;
    private static final int SOLICITED = 2;

    private final SoftContext context;
    private final SoftDevice device;
    private final SoftCompletionChannel channel;
    private final int cqe;
    private final Object lock = new Object();
    // guarded by lock
    private final WcRing ring;
    /**
     * Completions in the ring: written under lock, read without it by {@link #poll} to return from an
     * empty CQ without taking the lock (a poller spinning on an empty CQ never holds up a push).
     */
    private volatile int count;
    private int armed = NONE;
    private boolean overrun;

    private SoftCompletionQueue(SoftContext context, int cqe, SoftCompletionChannel channel) {
        super(context, "CQ on " + context.deviceName(), "ibv_destroy_cq",
                channel == null ? new ResourceBase[0] : new ResourceBase[] {channel});
        this.context = context;
        this.device = context.device();
        this.channel = channel;
        this.cqe = cqe;
        this.ring = new WcRing(scope(), Math.min(FIRST_RING, Integer.highestOneBit(cqe) << 1));
    }

    static SoftCompletionQueue create(SoftContext context, int cqe, CompletionChannel channel) throws VerbsException {
        int max = context.profile().deviceAttributes().maxCqe();
        if (cqe < 1 || cqe > max) {
            throw new VerbsException("ibv_create_cq", Errno.EINVAL, "cqe must be in 1.." + max + " on "
                    + context.deviceName() + ", got " + cqe);
        }
        SoftCompletionChannel ch = null;
        if (channel != null) {
            if (!(channel instanceof SoftCompletionChannel c) || c.softContext() != context) {
                throw new VerbsException("ibv_create_cq", Errno.EINVAL, "the completion channel is not one of "
                        + context.kind());
            }
            c.checkOpen();
            ch = c;
        }
        return new SoftCompletionQueue(context, SoftProfile.actualMaxWr(cqe), ch);
    }

    SoftContext softContext() {
        return context;
    }

    /** {@return the actual size: the next power of two above the requested cqe, minus one} */
    @Override
    public int cqe() {
        checkOpen();
        return cqe;
    }

    /**
     * Adds a completion (the device side of the CQ).
     *
     * @param qp        the QP the completion belongs to (moved to ERROR if the completion is lost)
     * @param wrId      wr_id
     * @param status    the {@code enum ibv_wc_status} value
     * @param opcode    the {@code enum ibv_wc_opcode} value (valid only for SUCCESS)
     * @param byteLen   bytes transferred
     * @param immNet    imm_data in network order
     * @param qpNum     the local QP number
     * @param srcQp     the remote QP number, or 0 where the device does not report it
     * @param flags     wc_flags
     * @param solicited whether the message asked for a solicited event
     * @return false on overrun: the completion is lost
     */
    boolean push(long wrId, int status, int opcode, int byteLen, int immNet, int qpNum, int srcQp, int flags,
                 boolean solicited) {
        boolean notify = false;
        boolean raise = false;
        boolean lost = false;
        synchronized (lock) {
            if (count == cqe) {
                lost = true;
                raise = !overrun;
                overrun = true;
            } else {
                ring.pushRaw(wrId, status, opcode, 0, byteLen, immNet, qpNum, srcQp, flags);
                count = ring.count();
                if (armed == ANY || (armed == SOLICITED && (solicited || status != 0))) {
                    armed = NONE;
                    notify = channel != null;
                }
            }
        }
        if (raise) {
            context.queueEvent(AsyncEventType.CQ_ERR, this);
        }
        if (notify) {
            channel.signal(this);
        }
        return !lost;
    }

    /**
     * ibv_poll_cq(3) with {@code num_entries = max}: moves up to {@code max} completions, oldest first,
     * into {@code wcs}; the rest stay in the CQ. Allocation-free; an empty CQ is seen without the
     * lock that pushes take.
     *
     * @param wcs the reusable WC array to fill from index 0
     * @param max 1..wcs.capacity()
     * @return the number of completions, 0 if the CQ is empty
     */
    @Override
    public int poll(WorkCompletionArray wcs, int max) {
        checkOpen();
        int entries = wcs.capacity();
        if (max < 1 || max > entries) {
            throw new IllegalArgumentException("maxEntries must be in 1.." + entries + ", got " + max);
        }
        Error injected = device.takePollFailure();
        if (injected != null) {
            throw injected; // SoftProvider.failNextPoll: a test's fault
        }
        if (count == 0) {
            return 0; // empty: no lock, as a device's poll reads the next CQE's owner bit and finds it not ready
        }
        synchronized (lock) {
            int n = ring.pollInto(wcs, max);
            count = ring.count();
            if (n > 0) {
                overrun = false;
            }
            return n;
        }
    }

    /**
     * What mlx5's {@code __mlx5_cq_clean} does at ibv_destroy_qp(3) (driver note 18): removes every
     * unpolled completion of QP {@code qpNum}, keeping the others in their order. The device side;
     * called by a QP's destroy on profiles with {@link DriverQuirks#destroyCleansCq()}.
     *
     * @param qpNum the destroyed QP's number
     * @return completions removed
     */
    int clean(int qpNum) {
        synchronized (lock) {
            int removed = ring.removeQp(qpNum);
            count = ring.count();
            if (removed > 0) {
                overrun = false;
            }
            return removed;
        }
    }

    /**
     * ibv_req_notify_cq(3): the next completion (with {@code solicitedOnly}: the next solicited or
     * failed one) queues an event on the CQ's channel. Completions already in the CQ do not. On a CQ
     * without a channel the call succeeds and has no effect, as on a real device.
     */
    @Override
    public void requestNotify(boolean solicitedOnly) {
        checkOpen();
        if (channel == null) {
            return;
        }
        synchronized (lock) {
            armed = solicitedOnly && armed != ANY ? SOLICITED : ANY;
        }
    }

    @Override
    protected void release() {
        // the ring lives in scope(), which ResourceBase closed before this runs
    }
}
