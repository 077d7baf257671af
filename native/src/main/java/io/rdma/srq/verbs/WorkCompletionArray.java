package io.rdma.srq.verbs;

import io.rdma.srq.api.WcStatus;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_wc;

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
     * Allocates the native array (in its own shared arena, freed by {@link #close()}).
     *
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
     * {@return the number of entries one poll may fill}
     *
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

    /**
     * {@return wr_id (for receives on an SRQ: the value posted)}
     *
     * @param i entry index
     */
    public long wrId(int i) {
        return wcs.get(ValueLayout.JAVA_LONG, at(i) + WR_ID);
    }

    /**
     * {@return the raw status, see {@link WcStatus}}
     *
     * @param i entry index
     */
    public int statusCode(int i) {
        return wcs.get(ValueLayout.JAVA_INT, at(i) + STATUS);
    }

    /**
     * {@return the status}
     *
     * @param i entry index
     */
    public WcStatus status(int i) {
        return WcStatus.of(statusCode(i));
    }

    /**
     * {@return whether the status is SUCCESS}
     *
     * @param i entry index
     */
    public boolean isSuccess(int i) {
        return statusCode(i) == 0;
    }

    /**
     * {@return the opcode ({@code enum ibv_wc_opcode}; 128 = IBV_WC_RECV)}
     *
     * @param i entry index
     */
    public int opcode(int i) {
        return wcs.get(ValueLayout.JAVA_INT, at(i) + OPCODE);
    }

    /**
     * {@return the vendor error syndrome of a failed completion}
     *
     * @param i entry index
     */
    public int vendorErr(int i) {
        return wcs.get(ValueLayout.JAVA_INT, at(i) + VENDOR_ERR);
    }

    /**
     * {@return bytes received (unsigned 32-bit)}
     *
     * @param i entry index
     */
    public int byteLen(int i) {
        return wcs.get(ValueLayout.JAVA_INT, at(i) + BYTE_LEN);
    }

    /**
     * {@return wc_flags; {@link #WITH_IMM} marks valid immediate data}
     *
     * @param i entry index
     */
    public int wcFlags(int i) {
        return wcs.get(ValueLayout.JAVA_INT, at(i) + WC_FLAGS);
    }

    /**
     * {@return whether imm_data is valid}
     *
     * @param i entry index
     */
    public boolean hasImm(int i) {
        return (wcFlags(i) & WITH_IMM) != 0;
    }

    /**
     * {@return imm_data converted from network to host order}
     *
     * @param i entry index
     */
    public int immData(int i) {
        return NetworkOrder.swap32(wcs.get(ValueLayout.JAVA_INT, at(i) + IMM_DATA));
    }

    /**
     * {@return the local QP number the completion belongs to}
     *
     * @param i entry index
     */
    public int qpNum(int i) {
        return wcs.get(ValueLayout.JAVA_INT, at(i) + QP_NUM);
    }

    /**
     * {@return src_qp: the sender's QP number, valid for UD only (ibv_poll_cq(3); rxe leaves it 0 on RC)}
     *
     * @param i entry index
     */
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
