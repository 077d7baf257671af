package io.rdma.srq.verbs.soft;

import io.rdma.srq.api.AsyncEventType;
import io.rdma.srq.api.DeviceAttributes;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.PostReceiveException;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.XrcDomain;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_recv_wr;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_sge;
import io.rdma.srq.verbs.spi.ResourceBase;
import io.rdma.srq.verbs.spi.SrqAttributeCache;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * {@link SharedReceiveQueue} of a soft device: a FIFO ring of receive WQEs (wr_id and SGEs copied
 * from the caller's {@code struct ibv_recv_wr} chain at post time, as rxe's and mlx5's
 * post_srq_recv copy them into the queue buffer).
 *
 * <p>Rules, per profile (see {@link SoftProfile}):
 * <ul>
 *   <li>post: a WR beyond max_wr outstanding → {@code ENOMEM}, num_sge above max_sge →
 *       {@code EINVAL}, in both cases with {@code bad_wr} at that WR and the WRs before it posted;</li>
 *   <li>modify (rxe_srq_chk_attr, applied only if every attribute is valid): IBV_SRQ_MAX_WR needs
 *       IBV_DEVICE_SRQ_RESIZE, 1 ≤ max_wr ≤ max_srq_wr, max_wr ≥ an armed srq_limit and ≥ the WRs
 *       outstanding; IBV_SRQ_LIMIT needs srq_limit ≤ max_srq_wr and ≤ the current max_wr (mlx5:
 *       &lt; max_wr); all else {@code EINVAL};</li>
 *   <li>limit event: when a receive is consumed and fewer than srq_limit (armed, &gt; 0) WRs remain,
 *       srq_limit becomes 0 and IBV_EVENT_SRQ_LIMIT_REACHED is queued once on the context (the check
 *       of rxe_resp.c get_srq_wqe, after the consume);</li>
 *   <li>destroying a QP does not flush the SRQ's receives (they stay for the other QPs, as in
 *       rxe_resp.c check_resource); destroying the SRQ with receives posted is allowed.</li>
 * </ul>
 */
final class SoftSharedReceiveQueue extends SoftResource implements SharedReceiveQueue {
    private static final long WR_SIZE = ibv_recv_wr.sizeof();
    private static final long WR_ID = ibv_recv_wr.wr_id$offset();
    private static final long NEXT = ibv_recv_wr.next$offset();
    private static final long SG_LIST = ibv_recv_wr.sg_list$offset();
    private static final long NUM_SGE = ibv_recv_wr.num_sge$offset();
    private static final long SGE_SIZE = ibv_sge.sizeof();
    private static final long SGE_ADDR = ibv_sge.addr$offset();
    private static final long SGE_LENGTH = ibv_sge.length$offset();
    private static final long SGE_LKEY = ibv_sge.lkey$offset();
    private static final int FIRST_RING = 64;

    private final SoftProtectionDomain pd;
    private final SoftContext context;
    private final SoftProfile profile;
    private final boolean xrc;
    private final int srqNum;
    private final int maxSge;
    private final SrqAttributeCache attributes;
    /** Sender QPs with sends waiting (RNR) for a receive of this SRQ. */
    final ConcurrentLinkedQueue<SoftQueuePair> waiters = new ConcurrentLinkedQueue<>();

    private final Object lock = new Object();
    // guarded by lock
    private int maxWr;
    private int limit;
    private int capacity;
    private long[] wrIds;
    private int[] numSges;
    private long[] sgeAddrs;
    private int[] sgeLengths;
    private int[] sgeLkeys;
    private int head;
    private int count;

    private SoftSharedReceiveQueue(SoftProtectionDomain pd, SrqAttributes actual, boolean xrc, ResourceBase... uses) {
        super(pd, (xrc ? "XRC SRQ" : "SRQ") + " on " + pd.softContext().deviceName(), "ibv_destroy_srq", uses);
        this.pd = pd;
        this.context = pd.softContext();
        this.profile = context.profile();
        this.xrc = xrc;
        this.srqNum = xrc ? SoftFabric.newSrqNum() : 0;
        this.maxWr = actual.maxWr();
        this.maxSge = actual.maxSge();
        this.limit = actual.srqLimit();
        this.capacity = Math.min(FIRST_RING, Integer.highestOneBit(maxWr) << 1);
        allocate(capacity);
        this.attributes = new SrqAttributeCache(this::queryNow, actual);
    }

    static SoftSharedReceiveQueue create(SoftProtectionDomain pd, SrqAttributes requested, SoftXrcDomain xrcd,
                                         SoftCompletionQueue cq) throws VerbsException {
        String op = xrcd == null ? "ibv_create_srq" : "ibv_create_srq_ex";
        SoftProfile profile = pd.softContext().profile();
        DeviceAttributes dev = profile.deviceAttributes();
        if (!profile.hasSrq()) {
            throw new VerbsException(op, Errno.EOPNOTSUPP, pd.softContext().deviceName() + " has no SRQ (max_srq 0)");
        }
        if (requested.maxWr() < 1 || requested.maxWr() > dev.maxSrqWr()) {
            throw new VerbsException(op, Errno.EINVAL, "max_wr must be in 1.." + dev.maxSrqWr() + " on "
                    + pd.softContext().deviceName() + ", got " + requested.maxWr());
        }
        if (requested.maxSge() > dev.maxSrqSge()) {
            throw new VerbsException(op, Errno.EINVAL, "max_sge must be ≤ max_srq_sge " + dev.maxSrqSge() + " on "
                    + pd.softContext().deviceName() + ", got " + requested.maxSge());
        }
        SrqAttributes actual = new SrqAttributes(SoftProfile.actualMaxWr(requested.maxWr()),
                profile.actualMaxSge(requested.maxSge()), profile.quirks().createLimitHonoured() ? requested.srqLimit() : 0);
        return xrcd == null ? new SoftSharedReceiveQueue(pd, actual, false)
                : new SoftSharedReceiveQueue(pd, actual, true, xrcd, cq);
    }

    static SoftSharedReceiveQueue createXrc(SoftProtectionDomain pd, XrcDomain xrcd, CompletionQueue cq,
                                            SrqAttributes requested) throws VerbsException {
        SoftContext ctx = pd.softContext();
        if (!ctx.profile().hasXrc()) {
            throw new VerbsException("ibv_create_srq_ex", Errno.EOPNOTSUPP, ctx.deviceName() + " has no XRC support");
        }
        if (!(xrcd instanceof SoftXrcDomain x) || x.softContext() != ctx) {
            throw new VerbsException("ibv_create_srq_ex", Errno.EINVAL, "the XRC domain is not one of " + ctx.kind());
        }
        if (!(cq instanceof SoftCompletionQueue c) || c.softContext() != ctx) {
            throw new VerbsException("ibv_create_srq_ex", Errno.EINVAL, "the CQ is not one of " + ctx.kind());
        }
        x.checkOpen();
        c.checkOpen();
        return create(pd, requested, x, c);
    }

    private void allocate(int size) {
        wrIds = new long[size];
        numSges = new int[size];
        sgeAddrs = new long[size * maxSge];
        sgeLengths = new int[size * maxSge];
        sgeLkeys = new int[size * maxSge];
    }

    /** Doubles the arrays (never beyond the power of two that holds max_wr), keeping FIFO order. */
    private void grow(int atLeast) {
        int size = capacity;
        while (size < atLeast) {
            size *= 2;
        }
        long[] oldIds = wrIds;
        int[] oldNum = numSges;
        long[] oldAddrs = sgeAddrs;
        int[] oldLengths = sgeLengths;
        int[] oldLkeys = sgeLkeys;
        int oldCapacity = capacity;
        allocate(size);
        for (int i = 0; i < count; i++) {
            int from = (head + i) & (oldCapacity - 1);
            wrIds[i] = oldIds[from];
            numSges[i] = oldNum[from];
            System.arraycopy(oldAddrs, from * maxSge, sgeAddrs, i * maxSge, maxSge);
            System.arraycopy(oldLengths, from * maxSge, sgeLengths, i * maxSge, maxSge);
            System.arraycopy(oldLkeys, from * maxSge, sgeLkeys, i * maxSge, maxSge);
        }
        capacity = size;
        head = 0;
    }

    SoftContext softContext() {
        return context;
    }

    SoftProtectionDomain pd() {
        return pd;
    }

    boolean isXrc() {
        return xrc;
    }

    private SrqAttributes queryNow() {
        checkOpen();
        synchronized (lock) {
            return new SrqAttributes(maxWr, maxSge, limit);
        }
    }

    @Override
    public int maxWr() {
        checkOpen();
        return attributes.maxWr();
    }

    @Override
    public int maxSge() {
        checkOpen();
        return attributes.maxSge();
    }

    @Override
    public int srqLimit() throws VerbsException {
        return attributes.srqLimit();
    }

    @Override
    public SrqAttributes query() throws VerbsException {
        return attributes.query();
    }

    /**
     * ibv_modify_srq(3); the values are checked first and applied only if all are valid (the NOTES
     * of ibv_modify_srq(3)). max_sge is never modified.
     *
     * @throws VerbsException {@code EINVAL} for a mask other than MAX_WR and/or LIMIT, or any invalid
     *                        value (see the class comment)
     */
    @Override
    public void modify(SrqAttributes values, int mask) throws VerbsException {
        checkOpen();
        SharedReceiveQueue.checkModifyMask(mask);
        int deviceMax = profile.deviceAttributes().maxSrqWr();
        synchronized (lock) {
            if ((mask & MODIFY_MAX_WR) != 0) {
                if (!profile.canResizeSrq()) {
                    throw invalid("the device cannot resize an SRQ (no IBV_DEVICE_SRQ_RESIZE)");
                }
                if (values.maxWr() > deviceMax) {
                    throw invalid("max_wr " + values.maxWr() + " > max_srq_wr " + deviceMax);
                }
                if (values.maxWr() <= 0) {
                    throw invalid("max_wr " + values.maxWr() + " ≤ 0");
                }
                if (limit > 0 && values.maxWr() < limit) {
                    throw invalid("max_wr " + values.maxWr() + " < the armed srq_limit " + limit);
                }
            }
            if ((mask & MODIFY_LIMIT) != 0) {
                if (values.srqLimit() > deviceMax) {
                    throw invalid("srq_limit " + values.srqLimit() + " > max_srq_wr " + deviceMax);
                }
                boolean belowOnly = profile.quirks().limitMustBeBelowMaxWr();
                if (belowOnly ? values.srqLimit() >= maxWr : values.srqLimit() > maxWr) {
                    throw invalid("srq_limit " + values.srqLimit() + (belowOnly ? " ≥ " : " > ") + "max_wr " + maxWr);
                }
            }
            int newMaxWr = maxWr;
            if ((mask & MODIFY_MAX_WR) != 0) {
                newMaxWr = SoftProfile.actualMaxWr(values.maxWr());
                if (newMaxWr < count) {
                    throw invalid("max_wr " + values.maxWr() + " cannot hold the " + count + " WRs outstanding");
                }
            }
            // all checked: apply (the arrays grow on demand, up to the power of two that holds max_wr)
            maxWr = newMaxWr;
            if ((mask & MODIFY_LIMIT) != 0) {
                limit = values.srqLimit();
            }
        }
        if ((mask & MODIFY_MAX_WR) != 0) {
            attributes.resized();
        }
    }

    private VerbsException invalid(String detail) {
        return new VerbsException("ibv_modify_srq", Errno.EINVAL, kind() + ": " + detail + "; nothing modified");
    }

    /**
     * ibv_post_srq_recv: reads the chain the way a driver does, from the head {@code struct
     * ibv_recv_wr} along the {@code next} pointers, and copies each WR's wr_id and SGEs into the
     * ring. On failure {@code bad_wr} (the chain's {@link ReceiveWorkRequests#badWrCell()}) points at
     * the refused WR.
     *
     * <p>The SGEs are copied as they are, unchecked, as rxe's and mlx5's post_srq_recv copy them: an
     * lkey, address or length that names no writable memory of the QP's PD is found when a message
     * arrives, and completes that receive with an error ({@code SoftQueuePair}). The chain itself is
     * read only through the segments {@link ReceiveWorkRequests} owns, never through a raw address:
     * a {@code next} or {@code sg_list} pointer that leaves them is refused with {@code EINVAL}, and a
     * chain closed by another thread throws {@link IllegalStateException} instead of reading freed
     * memory.
     */
    @Override
    public void postReceive(ReceiveWorkRequests wrs, int count) throws VerbsException {
        checkOpen();
        MemorySegment chain = wrs.terminate(count);
        MemorySegment sgl = wrs.sgeList();
        int posted = 0;
        int errno = 0;
        long bad = 0;
        try {
            long base = chain.address();
            long size = chain.byteSize();
            synchronized (lock) {
                long wr = base;
                while (wr != 0 && posted < count) {
                    long off = wr - base;
                    if (off < 0 || off > size - WR_SIZE || off % WR_SIZE != 0) {
                        errno = Errno.EINVAL.value(); // a next pointer out of the chain: read nothing there
                        bad = wr;
                        break;
                    }
                    int n = chain.get(ValueLayout.JAVA_INT, off + NUM_SGE);
                    if (this.count == maxWr) {
                        errno = Errno.ENOMEM.value();
                        bad = wr;
                        break;
                    }
                    long first = chain.get(ValueLayout.ADDRESS, off + SG_LIST).address() - sgl.address();
                    if (n < 0 || n > maxSge || (n > 0 && (first < 0 || first > sgl.byteSize() - n * SGE_SIZE))) {
                        errno = Errno.EINVAL.value();
                        bad = wr;
                        break;
                    }
                    if (this.count == capacity) {
                        grow(capacity * 2);
                    }
                    int slot = (head + this.count) & (capacity - 1);
                    wrIds[slot] = chain.get(ValueLayout.JAVA_LONG, off + WR_ID);
                    numSges[slot] = n;
                    int s = slot * maxSge;
                    for (int i = 0; i < n; i++) {
                        long sge = first + i * SGE_SIZE;
                        sgeAddrs[s + i] = sgl.get(ValueLayout.JAVA_LONG, sge + SGE_ADDR);
                        sgeLengths[s + i] = sgl.get(ValueLayout.JAVA_INT, sge + SGE_LENGTH);
                        sgeLkeys[s + i] = sgl.get(ValueLayout.JAVA_INT, sge + SGE_LKEY);
                    }
                    this.count++;
                    posted++;
                    wr = chain.get(ValueLayout.ADDRESS, off + NEXT).address();
                }
            }
        } finally {
            wrs.relink(count);
        }
        if (posted > 0 && !waiters.isEmpty()) {
            wakeWaiters();
        }
        if (errno != 0) {
            wrs.badWrCell().set(ValueLayout.ADDRESS, 0, MemorySegment.ofAddress(bad));
            throw new PostReceiveException(errno, posted, count);
        }
    }

    /** Lets every sender waiting for a receive of this SRQ try again (outside any lock). */
    void wakeWaiters() {
        for (SoftQueuePair w : waiters) {
            w.receivesPosted();
        }
    }

    /**
     * Takes the oldest receive WQE into {@code into} (the device consuming a receive).
     *
     * @param into the sender's scratch, which must hold {@link #maxSge()} SGEs
     * @return false if the SRQ is empty
     */
    boolean consume(SoftQueuePair.Wqe into) {
        boolean fire;
        synchronized (lock) {
            if (count == 0) {
                return false;
            }
            int n = numSges[head];
            into.wrId = wrIds[head];
            into.numSge = n;
            into.ensure(n);
            int s = head * maxSge;
            System.arraycopy(sgeAddrs, s, into.addr, 0, n);
            System.arraycopy(sgeLengths, s, into.length, 0, n);
            System.arraycopy(sgeLkeys, s, into.lkey, 0, n);
            head = (head + 1) & (capacity - 1);
            count--;
            fire = limit > 0 && count < limit;
            if (fire) {
                limit = 0;
            }
        }
        if (fire) {
            context.queueEvent(AsyncEventType.SRQ_LIMIT_REACHED, this);
        }
        return true;
    }

    /**
     * {@return the XRC SRQ number}
     *
     * @throws VerbsException {@code EOPNOTSUPP} for a basic SRQ
     */
    @Override
    public int srqNum() throws VerbsException {
        checkOpen();
        if (!xrc) {
            throw new VerbsException("ibv_get_srq_num", Errno.EOPNOTSUPP, kind() + " is not an XRC SRQ");
        }
        return srqNum;
    }

    @Override
    public int attachedQueuePairs() {
        checkOpen();
        return userCount();
    }

    @Override
    protected void release() {
        waiters.clear();
        synchronized (lock) {
            count = 0;
        }
    }
}
