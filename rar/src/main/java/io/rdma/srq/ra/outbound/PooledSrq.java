package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.SrqMessage;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.support.Teardown;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.WorkCompletionArray;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The receive side of one named SRQ of a pooled connection, owned by the adapter: the SRQ, the CQ
 * its receive completions go to (max_wr entries), one registered slab of max_wr × receiveBufferSize
 * bytes (the same for 1 or 256 peers) and a receive WR chain. Every buffer is posted at creation;
 * a buffer's wr_id is its index in the slab; it is reposted as soon as its message is copied out
 * ({@link #poll}), so the SRQ stays full while the servicing loop runs, and nothing but this class
 * ever posts into it: no posted WR can point at memory an application freed.
 *
 * <p>The SRQ is created with srq_limit 0 and armed after the first posts (driver note 4); the
 * limit event ({@link #limitReached}) re-posts what is free and re-arms it.
 *
 * <p>Threads: {@link #poll} and {@link #limitReached} take this object's lock (the servicing loop
 * and whoever reads the async event); nobody waits on it for a reply.
 */
final class PooledSrq implements AutoCloseable {
    private static final int CHAIN = 64;
    private static final int POLL_BATCH = 32;

    /** Where the messages of a poll go. */
    interface Sink {
        /**
         * @param qpNum   the local QP the message arrived on
         * @param message the copied message
         */
        void message(int qpNum, SrqMessage message);

        /**
         * @param qpNum  the local QP whose receive completed in error (the QP is in the error state)
         * @param status the work-completion status, e.g. LOC_LEN_ERR for a message longer than the buffer
         */
        void error(int qpNum, String status);
    }

    private final String name;
    private final SharedReceiveQueue srq;
    private final CompletionQueue cq;
    private final MemoryRegion slab;
    private final ReceiveWorkRequests wrs;
    private final WorkCompletionArray wcs;
    private final int bufferSize;
    private final int buffers;
    private final int limit;
    private final int[] free;
    private int freeCount;
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong limitEvents = new AtomicLong();
    private volatile int outstanding;
    private boolean closed;

    private PooledSrq(String name, SharedReceiveQueue srq, CompletionQueue cq, MemoryRegion slab, int buffers,
                      int bufferSize, int limit) {
        this.name = name;
        this.srq = srq;
        this.cq = cq;
        this.slab = slab;
        this.bufferSize = bufferSize;
        this.buffers = buffers;
        this.limit = limit;
        this.wrs = new ReceiveWorkRequests(CHAIN);
        this.wcs = new WorkCompletionArray(POLL_BATCH);
        this.free = new int[buffers];
        for (int i = buffers - 1; i >= 0; i--) {
            free[freeCount++] = i;
        }
    }

    /**
     * Creates the SRQ (srq_limit 0), its CQ and slab (max_wr as configured × bufferSize, however the
     * device rounds the SRQ's max_wr up), posts every buffer and arms the limit.
     *
     * @param pd         the pooled connection's protection domain
     * @param name       the SRQ's name
     * @param spec       max_wr, max_sge, srq_limit (srq_limit &lt; max_wr, checked by the caller)
     * @param bufferSize bytes per receive buffer
     * @return the filled SRQ
     * @throws VerbsException the errno of ibv_create_srq, ibv_create_cq, ibv_reg_mr,
     *                        ibv_post_srq_recv or ibv_modify_srq; nothing is left open
     */
    static PooledSrq create(ProtectionDomain pd, String name, SrqAttributes spec, int bufferSize)
            throws VerbsException {
        SharedReceiveQueue srq = pd.createSrq(new SrqAttributes(spec.maxWr(), spec.maxSge(), 0));
        CompletionQueue cq = null;
        MemoryRegion slab = null;
        try {
            // the configured max_wr, not the device's rounded one (rxe: 1024 -> 2047), so that the slab
            // registers what srqMaxWr × receiveBufferSize says, as an activation's does
            int buffers = Math.min(spec.maxWr(), srq.maxWr());
            cq = pd.context().createCq(buffers, null); // a completion per posted receive at most
            slab = pd.allocateRegistered((long) buffers * bufferSize, EnumSet.of(AccessFlag.LOCAL_WRITE));
            PooledSrq p = new PooledSrq(name, srq, cq, slab, buffers, bufferSize, spec.srqLimit());
            try {
                p.refill();
                if (p.limit > 0) {
                    srq.armLimit(p.limit);
                }
                return p;
            } catch (RuntimeException e) {
                p.wrs.close();
                p.wcs.close();
                throw e;
            }
        } catch (RuntimeException e) {
            Teardown.rollback(e, srq, cq, slab); // the SRQ first: its WRs point into the slab
            throw e;
        }
    }

    /** @return the SRQ's name */
    String name() {
        return name;
    }

    /** @return the SRQ */
    SharedReceiveQueue srq() {
        return srq;
    }

    /** @return the CQ of its receive completions */
    CompletionQueue cq() {
        return cq;
    }

    /** @return bytes per receive buffer */
    int bufferSize() {
        return bufferSize;
    }

    /** @return the srq_limit armed, 0 for none */
    int limit() {
        return limit;
    }

    /** @return registered receive bytes: max_wr × bufferSize, whatever the number of peers */
    long registeredBytes() {
        return slab.length();
    }

    /** @return receive WRs posted and not consumed */
    int outstanding() {
        return outstanding;
    }

    /** @return messages received */
    long received() {
        return received.get();
    }

    /** @return receive completions in error */
    long errors() {
        return errors.get();
    }

    /** @return limit events handled */
    long limitEvents() {
        return limitEvents.get();
    }

    /**
     * Polls the CQ once (up to {@value #POLL_BATCH} completions), copies each message out, hands it
     * to {@code sink} and reposts the buffers.
     *
     * @param sink where the messages go
     * @return the number of completions
     * @throws VerbsException the errno of ibv_poll_cq or ibv_post_srq_recv
     */
    synchronized int poll(Sink sink) throws VerbsException {
        if (closed) {
            return 0;
        }
        int n = cq.poll(wcs);
        for (int i = 0; i < n; i++) {
            int buffer = (int) wcs.wrId(i);
            if (wcs.isSuccess(i)) {
                int length = Math.min(wcs.byteLen(i), bufferSize);
                byte[] bytes = new byte[length];
                MemorySegment.copy(slab.segment(), ValueLayout.JAVA_BYTE, (long) buffer * bufferSize, bytes, 0, length);
                received.incrementAndGet();
                sink.message(wcs.qpNum(i), SrqMessage.of(bytes, wcs.hasImm(i), wcs.hasImm(i) ? wcs.immData(i) : 0));
            } else {
                errors.incrementAndGet();
                sink.error(wcs.qpNum(i), wcs.status(i).name());
            }
            if (buffer >= 0 && buffer < buffers) {
                free[freeCount++] = buffer;
            }
        }
        outstanding -= n;
        if (n > 0) {
            refill();
        }
        return n;
    }

    /**
     * IBV_EVENT_SRQ_LIMIT_REACHED: posts every free buffer and re-arms the one-shot limit.
     *
     * @return receive WRs outstanding after the refill
     * @throws VerbsException the errno of ibv_post_srq_recv or ibv_modify_srq
     */
    synchronized int limitReached() throws VerbsException {
        if (closed) {
            return 0;
        }
        limitEvents.incrementAndGet();
        refill();
        if (limit > 0) {
            srq.armLimit(limit);
        }
        return outstanding;
    }

    private void refill() throws VerbsException {
        while (freeCount > 0) {
            int k = 0;
            while (k < wrs.capacity() && freeCount > 0) {
                int buffer = free[--freeCount];
                wrs.set(k++, buffer, slab.address() + (long) buffer * bufferSize, bufferSize, slab.lkey());
            }
            srq.postReceive(wrs, k);
            outstanding += k;
        }
    }

    /**
     * Destroys the SRQ, then its CQ, then the slab (the QPs on it are closed first by the caller, so
     * no WR posted here outlives its memory). Idempotent.
     *
     * @throws VerbsException the first failing close
     */
    @Override
    public void close() throws VerbsException {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            new Teardown().close(srq).close(cq).close(slab).throwIfFailed();
        } finally {
            wrs.close();
            wcs.close();
        }
    }

    /**
     * @param spec the spec asked
     * @throws VerbsException EINVAL when srq_limit is not below max_wr
     */
    static void checkLimit(SrqAttributes spec) throws VerbsException {
        if (spec.srqLimit() < 0 || spec.srqLimit() >= spec.maxWr()) {
            throw new VerbsException("ibv_modify_srq", Errno.EINVAL, "srq_limit " + spec.srqLimit()
                    + " must be in 0..max_wr − 1 (" + (spec.maxWr() - 1) + "): every buffer is posted, the limit must lie below");
        }
    }
}
