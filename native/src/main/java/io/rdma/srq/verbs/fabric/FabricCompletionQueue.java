package io.rdma.srq.verbs.fabric;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.api.WcStatus;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.WorkCompletionArray;
import io.rdma.srq.verbs.ffi.fabric.Fabric;
import io.rdma.srq.verbs.ffi.fabric.fi_cq_attr;
import io.rdma.srq.verbs.ffi.fabric.fi_cq_data_entry;
import io.rdma.srq.verbs.ffi.fabric.fi_cq_err_entry;
import io.rdma.srq.verbs.spi.ResourceBase;
import io.rdma.srq.verbs.spi.WcRing;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A verbs CQ made of libfabric CQs: one fi CQ per endpoint that reports to it (its <em>members</em>),
 * because an endpoint's receives from a shared receive context are told apart only by the CQ they
 * are reported to (driver note 27) — so each completion gets its QP's qp_num, as {@code struct
 * ibv_wc} has it. A poll reads the members (which also makes libfabric progress their endpoints,
 * FI_PROGRESS_MANUAL) into a ring of {@code ibv_wc} and moves the ring's oldest entries out.
 *
 * <p>What the conversion writes (fi_cq(3) → ibv_poll_cq(3)): a receive is IBV_WC_RECV with byte_len
 * = len and, with FI_REMOTE_CQ_DATA, IBV_WC_WITH_IMM and imm_data = the low 32 bits of the CQ data;
 * a send is IBV_WC_SEND; an error entry (fi_cq_readerr) is FI_ECANCELED → IBV_WC_WR_FLUSH_ERR,
 * FI_ETRUNC / FI_EMSGSIZE → IBV_WC_LOC_LEN_ERR, anything else IBV_WC_GENERAL_ERR with vendor_err =
 * the errno. A member's completions left when its endpoint closes stay in the ring (nothing a QP
 * completed is lost by its destroy), as do the IBV_WC_WR_FLUSH_ERR of its sends that never completed.
 */
final class FabricCompletionQueue extends ResourceBase implements CompletionQueue {
    private static final int BATCH = 32;
    /** IBV_WC_SEND, IBV_WC_RECV (enum ibv_wc_opcode). */
    static final int OPCODE_SEND = 0;
    static final int OPCODE_RECV = 128;

    /** One fi CQ and the QP it belongs to. */
    static final class Member {
        final MemorySegment cq;
        final FabricQueuePair qp;
        final boolean sends;
        final boolean receives;

        Member(MemorySegment cq, FabricQueuePair qp, boolean sends, boolean receives) {
            this.cq = cq;
            this.qp = qp;
            this.sends = sends;
            this.receives = receives;
        }
    }

    private final FabricContext context;
    private final FabricCompletionChannel channel;
    private final int cqe;
    private final ReentrantLock lock = new ReentrantLock();
    private final WcRing ring;
    private final MemorySegment entries;
    private final MemorySegment errEntry;
    /** Copy on write under {@link #lock}; read without it. */
    private volatile Member[] members = new Member[0];
    private int next;
    private volatile boolean armed;
    /** nanoTime of the last {@link #poll} or channel read: the progress thread leaves a CQ that is read alone. */
    private volatile long lastRead = System.nanoTime();
    /** How recently a CQ must have been read for the progress thread to leave it alone, ns. */
    private static final long READ_RECENTLY_NANOS = 1_000_000;

    FabricCompletionQueue(FabricContext context, int cqe, FabricCompletionChannel channel) {
        super(context, "CQ on " + context.deviceName(), "ibv_destroy_cq",
                channel == null ? new ResourceBase[0] : new ResourceBase[] {channel});
        this.context = context;
        this.channel = channel;
        this.cqe = cqe;
        this.ring = new WcRing(scope(), 64);
        this.entries = scope().allocate(fi_cq_data_entry.layout(), BATCH);
        this.errEntry = scope().allocate(fi_cq_err_entry.layout());
        if (channel != null) {
            channel.attach(this);
        }
        context.progress().add(this);
    }

    FabricContext fabricContext() {
        return context;
    }

    @Override
    public int cqe() {
        ensureOpen();
        return cqe;
    }

    /**
     * Opens a member fi CQ for {@code qp} (fi_cq_open(3), FI_CQ_FORMAT_DATA, {@link #cqe} entries).
     *
     * @param qp       the QP whose endpoint binds it
     * @param sends    bound FI_TRANSMIT
     * @param receives bound FI_RECV
     * @return the member
     * @throws VerbsException the errno of fi_cq_open
     */
    Member open(FabricQueuePair qp, boolean sends, boolean receives) {
        return whileOpen(() -> {
            MemorySegment attr = scope().allocate(fi_cq_attr.layout());
            fi_cq_attr.format(attr, Fabric.FI_CQ_FORMAT_DATA());
            fi_cq_attr.size(attr, Math.max(cqe, 64));
            MemorySegment waitSet = channel == null ? null : channel.waitSet();
            if (waitSet != null) {
                fi_cq_attr.wait_obj(attr, Fabric.FI_WAIT_SET());
                fi_cq_attr.wait_set(attr, waitSet);
            }
            MemorySegment out = scope().allocate(ValueLayout.ADDRESS);
            int rc = waitSet == null ? FabricOps.cqOpen(context.domain(), attr, out, MemorySegment.NULL)
                    : channel.changingMembers(() -> FabricOps.cqOpen(context.domain(), attr, out, MemorySegment.NULL));
            FabricOps.check("fi_cq_open", rc);
            Member m = new Member(out.get(ValueLayout.ADDRESS, 0).reinterpret(scope(), null), qp, sends, receives);
            lock.lock();
            try {
                Member[] grown = Arrays.copyOf(members, members.length + 1);
                grown[grown.length - 1] = m;
                members = grown;
            } finally {
                lock.unlock();
            }
            return m;
        });
    }

    /**
     * Takes what {@code m} still holds into the ring, then closes it (fi_close): after its endpoint
     * closed, so nothing more arrives there.
     *
     * @param m the member
     */
    void close(Member m) {
        lock.lock();
        try {
            if (!isClosed()) {
                drain(m);
                m.qp.flushSends(this);
            }
            members = Arrays.stream(members).filter(x -> x != m).toArray(Member[]::new);
        } finally {
            lock.unlock();
        }
        MemorySegment raw = MemorySegment.ofAddress(m.cq.address());
        if (channel == null) {
            FabricOps.close(raw);
        } else {
            channel.changingMembers(() -> FabricOps.close(raw));
        }
    }

    /**
     * Adds a completion the provider makes itself (a flush), under the CQ's lock.
     */
    void add(long wrId, WcStatus status, int opcode, int qpNum) {
        lock.lock();
        try {
            ring.push(wrId, status.code(), opcode, 0, 0, 0, qpNum, 0);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int poll(WorkCompletionArray wcs, int max) {
        ensureOpen();
        int entries = wcs.capacity();
        if (max < 1 || max > entries) {
            throw new IllegalArgumentException("maxEntries must be in 1.." + entries + ", got " + max);
        }
        lastRead = System.nanoTime();
        lock.lock();
        try {
            if (ring.count() < max) {
                progress(max - ring.count());
            }
            return ring.pollInto(wcs, max);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Reads the members (the channel's wait, too) until {@code want} more completions are in the ring
     * or every member was read once.
     *
     * @return whether the ring holds completions
     */
    boolean progress(int want) {
        Member[] all = members;
        int got = 0;
        for (int k = 0; k < all.length && got < want; k++) {
            Member m = all[(next + k) % all.length];
            got += read(m, want - got);
        }
        if (all.length > 0) {
            next = (next + 1) % all.length;
        }
        return ring.count() > 0;
    }

    /** Under the lock: the ring holds completions after reading the members once. */
    boolean ready() {
        lastRead = System.nanoTime();
        lock.lock();
        try {
            return !isClosed() && (ring.count() > 0 || progress(BATCH));
        } finally {
            lock.unlock();
        }
    }

    /**
     * Reads the members into the ring unless a poller holds the CQ or read it in the last
     * millisecond (the context's progress thread: it stays out of a poller's way).
     *
     * @return whether something was read
     */
    boolean tryProgress() {
        if (isClosed() || System.nanoTime() - lastRead < READ_RECENTLY_NANOS || armedOnWaitSet() || !lock.tryLock()) {
            return false;
        }
        try {
            if (isClosed()) {
                return false;
            }
            int before = ring.count();
            progress(BATCH);
            return ring.count() > before;
        } catch (IllegalStateException closing) {
            return false; // closed between the check and the read
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@return whether a channel waiter sleeps in fi_wait for this CQ} Its members' events wake it,
     * and it reads them; the progress thread must not take them first (the waiter would sleep on).
     */
    private boolean armedOnWaitSet() {
        return armed && channel != null && channel.waitSet() != null;
    }

    private void drain(Member m) {
        while (read(m, BATCH) > 0) {
            // until the member is empty
        }
    }

    private int read(Member m, int max) {
        long n = FabricOps.cqRead(m.cq, entries, Math.min(max, BATCH));
        if (n == -Fabric.FI_EAGAIN()) {
            return 0;
        }
        if (n == -Fabric.FI_EAVAIL()) {
            FabricOps.check("fi_cq_readerr", FabricOps.cqReadErr(m.cq, errEntry, 0));
            readError(m);
            return 1;
        }
        FabricOps.check("fi_cq_read", n);
        for (int k = 0; k < n; k++) {
            MemorySegment e = entries.asSlice(k * fi_cq_data_entry.sizeof(), fi_cq_data_entry.sizeof());
            long flags = fi_cq_data_entry.flags(e);
            long context = fi_cq_data_entry.op_context(e).address();
            if ((flags & Fabric.FI_RECV()) != 0) {
                boolean imm = (flags & Fabric.FI_REMOTE_CQ_DATA()) != 0;
                ring.push(context, WcStatus.SUCCESS.code(), OPCODE_RECV, 0, (int) fi_cq_data_entry.len(e),
                        imm ? (int) fi_cq_data_entry.data(e) : 0, m.qp.qpNum(), imm ? WorkCompletionArray.WITH_IMM : 0);
                m.qp.received();
            } else {
                ring.push(m.qp.sendCompleted(context), WcStatus.SUCCESS.code(), OPCODE_SEND, 0, 0, 0, m.qp.qpNum(), 0);
            }
        }
        return (int) n;
    }

    private void readError(Member m) {
        long flags = fi_cq_err_entry.flags(errEntry);
        long context = fi_cq_err_entry.op_context(errEntry).address();
        int err = fi_cq_err_entry.err(errEntry);
        WcStatus status = err == Fabric.FI_ECANCELED() ? WcStatus.WR_FLUSH_ERR
                : err == Fabric.FI_ETRUNC() || err == Errno.EMSGSIZE.value() ? WcStatus.LOC_LEN_ERR
                : WcStatus.GENERAL_ERR;
        boolean receive = (flags & Fabric.FI_RECV()) != 0 || (!m.sends && m.receives);
        if (receive) {
            ring.push(context, status.code(), OPCODE_RECV, err, (int) fi_cq_err_entry.len(errEntry), 0, m.qp.qpNum(), 0);
            m.qp.received();
        } else {
            ring.push(m.qp.sendCompleted(context), status.code(), OPCODE_SEND, err, 0, 0, m.qp.qpNum(), 0);
        }
    }

    /**
     * ibv_req_notify_cq(3): the channel's next wait returns this CQ once it holds a completion. The
     * channel learns it by reading the members, so a completion already in the CQ also counts (a
     * spurious wake-up the verbs pattern — arm, poll, wait — absorbs). solicited_only is treated as
     * every completion: libfabric has no solicited events.
     */
    @Override
    public void requestNotify(boolean solicitedOnly) {
        ensureOpen();
        armed = channel != null;
    }

    /** {@return whether armed, disarming} */
    boolean takeArmed() {
        boolean was = armed;
        armed = false;
        return was;
    }

    void rearm() {
        armed = true;
    }

    @Override
    protected void destroy() {
        context.progress().remove(this);
        if (channel != null) {
            channel.detach(this);
        }
    }
}
