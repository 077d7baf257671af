package io.rdma.srq.verbs;

import io.rdma.srq.api.WcStatus;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_wc;
import io.rdma.srq.verbs.spi.NetworkOrder;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A reusable native array of {@code struct ibv_wc} for {@link CompletionQueue#poll}: one per
 * poller thread, allocated once, read by index without allocation. Entries are valid until the next
 * poll into the same array (copy what must outlive it; never hand an entry to another thread and
 * poll again, driver note 14: WCs delivered twice).
 *
 * <p>Fields follow ibv_poll_cq(3); only status, wr_id, qp_num and vendor_err are valid for a failed
 * completion.
 */
public final class WorkCompletionArray implements AutoCloseable {
    private static final long SIZE = ibv_wc.sizeof();
    private static final long WR_ID = ibv_wc.wr_id$offset();
    private static final long STATUS = ibv_wc.status$offset();
    private static final long OPCODE = ibv_wc.opcode$offset();
    private static final long VENDOR_ERR = ibv_wc.vendor_err$offset();
    private static final long BYTE_LEN = ibv_wc.byte_len$offset();
    private static final long IMM_DATA = ibv_wc.imm_data$offset();
    private static final long QP_NUM = ibv_wc.qp_num$offset();
    private static final long SRC_QP = ibv_wc.src_qp$offset();
    private static final long WC_FLAGS = ibv_wc.wc_flags$offset();
    /** IBV_WC_WITH_IMM */
    public static final int WITH_IMM = 1 << 1;

    private final Arena arena;
    private final MemorySegment wcs;
    private final int capacity;
    /** Cleared by {@link #close()}; a plain field, as the array belongs to one poller thread. */
    private boolean open = true;

    /**
     * @param capacity entries, 1..65536 (the {@code num_entries} of each poll)
     * @throws IllegalArgumentException if capacity is out of range
     */
    public WorkCompletionArray(int capacity) {
        if (capacity < 1 || capacity > 65536) {
            throw new IllegalArgumentException("WC array capacity must be in 1..65536, got " + capacity);
        }
        this.capacity = capacity;
        this.arena = Arena.ofShared();
        this.wcs = arena.allocate(ibv_wc.layout(), capacity);
    }

    /**
     * @return the number of entries one poll may fill
     * @throws IllegalStateException if closed
     */
    public int capacity() {
        ensureOpen();
        return capacity;
    }

    /**
     * The native array, for providers: {@code capacity} consecutive {@code struct ibv_wc}.
     *
     * @return the segment
     * @throws IllegalStateException if closed
     */
    public MemorySegment segment() {
        ensureOpen();
        return wcs;
    }

    private void ensureOpen() {
        if (!open) {
            throw new IllegalStateException("work completion array is closed");
        }
    }

    private long at(int i) {
        return i * SIZE;
    }

    /** @param i entry index @return wr_id (for receives on an SRQ: the value posted) */
    public long wrId(int i) {
        return wcs.get(ValueLayout.JAVA_LONG, at(i) + WR_ID);
    }

    /** @param i entry index @return the raw status, see {@link WcStatus} */
    public int statusCode(int i) {
        return wcs.get(ValueLayout.JAVA_INT, at(i) + STATUS);
    }

    /** @param i entry index @return the status */
    public WcStatus status(int i) {
        return WcStatus.of(statusCode(i));
    }

    /** @param i entry index @return whether the status is SUCCESS */
    public boolean isSuccess(int i) {
        return statusCode(i) == 0;
    }

    /** @param i entry index @return the opcode ({@code enum ibv_wc_opcode}; 128 = IBV_WC_RECV) */
    public int opcode(int i) {
        return wcs.get(ValueLayout.JAVA_INT, at(i) + OPCODE);
    }

    /** @param i entry index @return the vendor error syndrome of a failed completion */
    public int vendorErr(int i) {
        return wcs.get(ValueLayout.JAVA_INT, at(i) + VENDOR_ERR);
    }

    /** @param i entry index @return bytes received (unsigned 32-bit) */
    public int byteLen(int i) {
        return wcs.get(ValueLayout.JAVA_INT, at(i) + BYTE_LEN);
    }

    /** @param i entry index @return wc_flags; {@link #WITH_IMM} marks valid immediate data */
    public int wcFlags(int i) {
        return wcs.get(ValueLayout.JAVA_INT, at(i) + WC_FLAGS);
    }

    /** @param i entry index @return whether imm_data is valid */
    public boolean hasImm(int i) {
        return (wcFlags(i) & WITH_IMM) != 0;
    }

    /** @param i entry index @return imm_data converted from network to host order */
    public int immData(int i) {
        return NetworkOrder.swap32(wcs.get(ValueLayout.JAVA_INT, at(i) + IMM_DATA));
    }

    /** @param i entry index @return the local QP number the completion belongs to */
    public int qpNum(int i) {
        return wcs.get(ValueLayout.JAVA_INT, at(i) + QP_NUM);
    }

    /** @param i entry index @return the sender's QP number */
    public int srcQp(int i) {
        return wcs.get(ValueLayout.JAVA_INT, at(i) + SRC_QP);
    }

    /** Frees the native array. Idempotent. */
    @Override
    public void close() {
        open = false;
        if (arena.scope().isAlive()) {
            arena.close();
        }
    }
}
