package io.rdma.srq.verbs.fabric;

import io.rdma.srq.api.AsyncEventType;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.PostReceiveException;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.ffi.fabric.Fabric;
import io.rdma.srq.verbs.spi.ResourceBase;

import java.lang.foreign.MemorySegment;

/**
 * An SRQ as a libfabric shared receive context (fi_srx_context(3) via fi_endpoint(3)): every
 * endpoint of a QP on it takes its receives from it. What libfabric lacks, emulated as the verbs
 * man pages describe it, and named in {@link FabricContext#QUIRKS}:
 * <ul>
 *   <li>the limit event (ibv_modify_srq(3) IBV_SRQ_LIMIT): the SRQ counts the receives posted and
 *       not yet completed; when a completion is polled and fewer than an armed srq_limit remain,
 *       srq_limit becomes 0 and IBV_EVENT_SRQ_LIMIT_REACHED is queued once on the context — at
 *       poll time, where a device raises it when the receive is consumed;</li>
 *   <li>max_wr: posting more than max_wr outstanding receives fails with ENOMEM, as on a device
 *       (the srx is opened with rx_attr size = max_wr);</li>
 *   <li>no resize (no IBV_DEVICE_SRQ_RESIZE): IBV_SRQ_MAX_WR fails with EINVAL; max_sge is 1.</li>
 * </ul>
 * Each receive's SGE must lie inside a memory region of the SRQ's PD (else EINVAL, nothing of
 * the WR posted): libfabric's tcp provider writes where it is told, so the check happens here.
 */
final class FabricSharedReceiveQueue extends ResourceBase implements SharedReceiveQueue {
    private final FabricContext context;
    private final FabricProtectionDomain pd;
    private final MemorySegment srx;
    private final int maxWr;
    private final Object lock = new Object();
    // guarded by lock
    private int outstanding;
    private int limit;

    private FabricSharedReceiveQueue(FabricProtectionDomain pd, MemorySegment rawSrx, int maxWr, int limit) {
        super(pd, "SRQ on " + pd.fabricContext().deviceName(), "ibv_destroy_srq");
        this.context = pd.fabricContext();
        this.pd = pd;
        this.srx = rawSrx.reinterpret(scope(), null);
        this.maxWr = maxWr;
        this.limit = limit;
    }

    static FabricSharedReceiveQueue create(FabricProtectionDomain pd, SrqAttributes requested) {
        FabricContext context = pd.fabricContext();
        int max = context.queryDevice().maxSrqWr();
        if (requested.maxWr() < 1 || requested.maxWr() > max) {
            throw new VerbsException("ibv_create_srq", Errno.EINVAL, "max_wr must be in 1.." + max + " on "
                    + context.deviceName() + ", got " + requested.maxWr());
        }
        if (requested.maxSge() > 1) {
            throw new VerbsException("ibv_create_srq", Errno.EINVAL, "max_sge must be 1 on " + context.deviceName()
                    + " (fi_recv takes one buffer), got " + requested.maxSge());
        }
        if (requested.srqLimit() < 0 || requested.srqLimit() > requested.maxWr()) {
            throw new VerbsException("ibv_create_srq", Errno.EINVAL, "srq_limit must be in 0.." + requested.maxWr()
                    + ", got " + requested.srqLimit());
        }
        MemorySegment raw = context.openSrx(requested.maxWr());
        return new FabricSharedReceiveQueue(pd, raw, requested.maxWr(), requested.srqLimit());
    }

    /** {@return the struct fid_ep * of the shared receive context, to bind endpoints to} */
    MemorySegment handle() {
        return srx;
    }

    FabricProtectionDomain pd() {
        return pd;
    }

    @Override
    public int maxWr() {
        ensureOpen();
        return maxWr;
    }

    @Override
    public int maxSge() {
        ensureOpen();
        return 1;
    }

    @Override
    public int srqLimit() {
        ensureOpen();
        synchronized (lock) {
            return limit;
        }
    }

    @Override
    public SrqAttributes query() {
        ensureOpen();
        synchronized (lock) {
            return new SrqAttributes(maxWr, 1, limit);
        }
    }

    @Override
    public void modify(SrqAttributes attributes, int mask) {
        ensureOpen();
        SharedReceiveQueue.checkModifyMask(mask);
        if ((mask & MODIFY_MAX_WR) != 0) {
            throw new VerbsException("ibv_modify_srq", Errno.EINVAL, kind()
                    + ": IBV_SRQ_MAX_WR needs IBV_DEVICE_SRQ_RESIZE, which a libfabric shared receive context lacks;"
                    + " nothing modified");
        }
        if (attributes.srqLimit() < 0 || attributes.srqLimit() > maxWr) {
            throw new VerbsException("ibv_modify_srq", Errno.EINVAL, kind() + ": srq_limit " + attributes.srqLimit()
                    + " > max_wr " + maxWr + "; nothing modified");
        }
        synchronized (lock) {
            limit = attributes.srqLimit();
        }
    }

    /**
     * ibv_post_srq_recv(3) as one fi_recv(3) per WR on the shared receive context, the WR's wr_id as
     * the operation context (returned as the completion's wr_id). A WR refused (ENOMEM past max_wr,
     * EINVAL for an SGE outside the PD's regions, or libfabric's errno) ends the post: those before
     * it are posted.
     */
    @Override
    public void postReceive(ReceiveWorkRequests wrs, int count) {
        ensureOpen();
        if (count < 1 || count > wrs.capacity()) {
            throw new IllegalArgumentException("count must be in 1.." + wrs.capacity() + ", got " + count);
        }
        for (int i = 0; i < count; i++) {
            long address = wrs.address(i);
            int length = wrs.length(i);
            FabricMemoryRegion region = pd.region(wrs.lkey(i), address, length);
            if (region == null) {
                wrs.markBad(i);
                throw new PostReceiveException(Errno.EINVAL.value(), i, count);
            }
            synchronized (lock) {
                if (outstanding == maxWr) {
                    wrs.markBad(i);
                    throw new PostReceiveException(Errno.ENOMEM.value(), i, count);
                }
                long rc = FabricOps.recv(srx, MemorySegment.ofAddress(address), Integer.toUnsignedLong(length),
                        region.desc(), Fabric.FI_ADDR_UNSPEC(), MemorySegment.ofAddress(wrs.wrId(i)));
                if (rc < 0) {
                    wrs.markBad(i);
                    throw new PostReceiveException((int) -rc, i, count);
                }
                outstanding++;
            }
        }
    }

    /** A receive of this SRQ completed (polled): counts it, and fires the armed limit once. */
    void consumed() {
        boolean fire;
        synchronized (lock) {
            outstanding = Math.max(0, outstanding - 1);
            fire = limit > 0 && outstanding < limit;
            if (fire) {
                limit = 0;
            }
        }
        if (fire) {
            context.queueEvent(AsyncEventType.SRQ_LIMIT_REACHED, this);
        }
    }

    @Override
    public int srqNum() {
        ensureOpen();
        throw new VerbsException("ibv_get_srq_num", Errno.EOPNOTSUPP, kind() + " is a basic SRQ: only XRC SRQs have a number");
    }

    @Override
    public int attachedQueuePairs() {
        return userCount();
    }

    @Override
    protected void destroy() {
        FabricOps.close(MemorySegment.ofAddress(srx.address()));
    }
}
