package io.rdma.srq.ra.inbound.delivery;

import io.rdma.srq.ra.inbound.config.InboundConfig;
import io.rdma.srq.ra.inbound.connections.SrqLimitWatch;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.SrqLimitReached;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.SharedReceiveQueue;

import org.jboss.logging.Logger;

import java.lang.foreign.MemorySegment;
import java.time.Instant;
import java.util.EnumSet;
import java.util.concurrent.atomic.LongAdder;

/**
 * The receive buffers of one activation's SRQ: one registered slab of srqMaxWr × bufferSize bytes
 * (the same for 1 or 1000 connections), the buffers neither posted nor in delivery (a stack of
 * indexes; a buffer's index is its receive WR's wr_id), and the refill policy: how many receives
 * should be posted (the fill level, initialFill at start), how the level reacts to
 * IBV_EVENT_SRQ_LIMIT_REACHED (replenishPolicy {@code grow}: doubles it up to srqMaxWr,
 * MVAPICH2-style) and the re-arming of the one-shot limit (ibv_modify_srq(3) IBV_SRQ_LIMIT).
 *
 * <p>Threads: {@link #topUp}, {@link #completed}, {@link #release} and {@link #consumed} are the poller's alone;
 * {@link #limitReached} is the control loop's; the counters may be read by anyone.
 */
public final class ReceiveBuffers implements SrqLimitWatch {
    private static final Logger LOG = Logger.getLogger(ReceiveBuffers.class);
    private final SharedReceiveQueue srq;
    private final MemoryRegion slab;
    private final int bufferSize;
    private final int maxFill;
    private final int limit;
    private final InboundConfig.Replenish policy;
    private final int[] free;
    private int freeCount;
    /** Whether each buffer is posted (its receive WR given to the SRQ and not yet completed). */
    private final boolean[] isPosted;
    private final LongAdder posted = new LongAdder();
    private volatile long outstanding;
    private volatile int fill;
    private volatile boolean rearm;

    /**
     * Registers the slab (ibv_reg_mr(3), IBV_ACCESS_LOCAL_WRITE); posts nothing until the first
     * {@link #topUp}, which then arms the limit (an SRQ is created with limit 0 and armed after its
     * first receives are posted: driver note 4).
     *
     * @param pd     the SRQ's protection domain
     * @param srq    the SRQ, created with srq_limit 0, max_wr ≥ config srqMaxWr
     * @param config srqMaxWr (buffers), bufferSize, srqLimit, initialFill, replenishPolicy
     * @throws VerbsException the errno of ibv_reg_mr
     * @throws OutOfMemoryError when the slab cannot be allocated
     */
    public ReceiveBuffers(ProtectionDomain pd, SharedReceiveQueue srq, InboundConfig config) throws VerbsException {
        this.srq = srq;
        this.bufferSize = config.bufferSize();
        this.maxFill = config.srq().maxWr();
        this.limit = config.srq().srqLimit();
        this.policy = config.replenish();
        this.slab = pd.allocateRegistered((long) maxFill * bufferSize, EnumSet.of(AccessFlag.LOCAL_WRITE));
        this.free = new int[maxFill];
        this.isPosted = new boolean[maxFill];
        for (int i = 0; i < free.length; i++) {
            free[freeCount++] = i;
        }
        this.fill = config.initialFill();
        this.rearm = limit > 0;
    }

    /**
     * Posts free buffers until the fill level is reached, in chains of up to {@code wrs.capacity()}
     * (ibv_post_srq_recv(3)), then re-arms the limit if asked. Poller thread only.
     *
     * @param wrs the poller's receive WR chain
     * @throws VerbsException the errno of ibv_post_srq_recv or ibv_modify_srq
     */
    public void topUp(ReceiveWorkRequests wrs) throws VerbsException {
        long want = fill - outstanding;
        while (want > 0 && freeCount > 0) {
            int k = 0;
            while (k < wrs.capacity() && k < want && freeCount > 0) {
                int buffer = free[--freeCount];
                isPosted[buffer] = true;
                wrs.set(k++, buffer, slab.address() + (long) buffer * bufferSize, bufferSize, slab.lkey());
            }
            srq.postReceive(wrs, k);
            outstanding += k;
            posted.add(k);
            want -= k;
        }
        if (rearm) {
            rearm = false;
            srq.armLimit(limit);
        }
    }

    /** @param n completions taken from the CQ: that many receives are no longer posted (poller thread) */
    void consumed(int n) {
        outstanding -= n;
    }

    /**
     * Takes back the buffer a receive completion names, before its wr_id is used as an index (poller
     * thread): the wr_id comes from the device and its driver.
     *
     * @param wrId the completion's wr_id
     * @return the buffer's index, no longer posted; -1 when {@code wrId} names no posted buffer of this
     *         SRQ (outside 0..srqMaxWr-1, or a buffer whose completion was taken already)
     */
    int completed(long wrId) {
        if (wrId < 0 || wrId >= isPosted.length || !isPosted[(int) wrId]) {
            return -1;
        }
        isPosted[(int) wrId] = false;
        return (int) wrId;
    }

    /** @return bytes per buffer (bufferSize): a successful completion's byte_len is at most this */
    int bufferSize() {
        return bufferSize;
    }

    /** @return buffers of the slab (srqMaxWr): the wr_ids 0..this-1 */
    int count() {
        return isPosted.length;
    }

    @Override
    public SrqLimitReached onLimitReached(String srqName, String device) {
        int before = limitReached();
        LOG.debugf("activation %s: SRQ limit %d reached, %d outstanding; fill %d -> %d", srqName, limit,
                outstanding, before, fill);
        return SrqLimitReached.builder().srqName(srqName).device(device).limit(limit)
                .outstanding((int) outstanding).time(Instant.now()).build();
    }

    /** @param buffer a buffer (wr_id) back from delivery or from an error completion (poller thread) */
    void release(int buffer) {
        free[freeCount++] = buffer;
    }

    /**
     * IBV_EVENT_SRQ_LIMIT_REACHED: raises the fill level by the policy and has the next top-up re-arm
     * the limit (control loop).
     *
     * @return the fill level before
     */
    public int limitReached() {
        int before = fill;
        if (policy == InboundConfig.Replenish.GROW) {
            fill = Math.min(maxFill, Math.max(before * 2, before + 1));
        }
        rearm = true;
        return before;
    }

    /**
     * @param index  a buffer's index (its wr_id)
     * @param length bytes of it, ≤ bufferSize
     * @return the buffer's first {@code length} bytes in the slab
     */
    MemorySegment buffer(int index, int length) {
        return slab.segment().asSlice((long) index * bufferSize, length);
    }

    /** @return receive WRs posted since the start */
    public long posted() {
        return posted.sum();
    }

    /** @return receive WRs posted and not yet consumed */
    public long outstanding() {
        return outstanding;
    }

    /** @return the fill level now */
    public int fill() {
        return fill;
    }

    /** @return the configured srq_limit (0: not armed) */
    public int srqLimit() {
        return limit;
    }
}
