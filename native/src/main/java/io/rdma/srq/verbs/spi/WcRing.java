package io.rdma.srq.verbs.spi;

import io.rdma.srq.verbs.NetworkOrder;
import io.rdma.srq.verbs.WorkCompletionArray;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_wc;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A growable FIFO of {@code struct ibv_wc} in native memory, for a provider whose CQ is not a
 * device ring: completions are written field by field ({@link #push}) and moved to a
 * {@link WorkCompletionArray} in one copy ({@link #pollInto}). Not thread-safe: the owning CQ
 * serializes its use.
 */
public final class WcRing {
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

    private final Arena arena;
    private MemorySegment ring;
    private int capacity;
    private int head;
    private int count;

    /**
     * An empty ring.
     *
     * @param arena    where the ring (and each larger one) is allocated; it outlives the ring
     * @param capacity the first capacity, a power of two
     */
    public WcRing(Arena arena, int capacity) {
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two, got " + capacity);
        }
        this.arena = arena;
        this.capacity = capacity;
        this.ring = arena.allocate(ibv_wc.layout(), capacity);
    }

    /** {@return the completions held} */
    public int count() {
        return count;
    }

    /**
     * Appends a completion, growing the ring when full.
     *
     * @param wrId      wr_id
     * @param status    the {@code enum ibv_wc_status} value
     * @param opcode    the {@code enum ibv_wc_opcode} value
     * @param vendorErr vendor_err (a provider's own error number)
     * @param byteLen   bytes transferred
     * @param imm       imm_data in host order (stored in network order, as ibv_wc holds it)
     * @param qpNum     the local QP number
     * @param flags     wc_flags
     */
    public void push(long wrId, int status, int opcode, int vendorErr, int byteLen, int imm, int qpNum, int flags) {
        pushRaw(wrId, status, opcode, vendorErr, byteLen, NetworkOrder.swap32(imm), qpNum, 0, flags);
    }

    /**
     * Appends a completion whose imm_data is in network order already, with its src_qp; the other
     * fields (pkey_index, slid, sl, dlid_path_bits) 0.
     *
     * @param wrId      wr_id
     * @param status    the {@code enum ibv_wc_status} value
     * @param opcode    the {@code enum ibv_wc_opcode} value
     * @param vendorErr vendor_err
     * @param byteLen   bytes transferred
     * @param immNet    imm_data in network order
     * @param qpNum     the local QP number
     * @param srcQp     the remote QP number, or 0
     * @param flags     wc_flags
     */
    public void pushRaw(long wrId, int status, int opcode, int vendorErr, int byteLen, int immNet, int qpNum, int srcQp,
                        int flags) {
        if (count == capacity) {
            grow();
        }
        long o = ((head + count) & (capacity - 1)) * SIZE;
        ring.asSlice(o, SIZE).fill((byte) 0);
        ring.set(ValueLayout.JAVA_LONG, o + WR_ID, wrId);
        ring.set(ValueLayout.JAVA_INT, o + STATUS, status);
        ring.set(ValueLayout.JAVA_INT, o + OPCODE, opcode);
        ring.set(ValueLayout.JAVA_INT, o + VENDOR_ERR, vendorErr);
        ring.set(ValueLayout.JAVA_INT, o + BYTE_LEN, byteLen);
        ring.set(ValueLayout.JAVA_INT, o + IMM_DATA, immNet);
        ring.set(ValueLayout.JAVA_INT, o + QP_NUM, qpNum);
        ring.set(ValueLayout.JAVA_INT, o + SRC_QP, srcQp);
        ring.set(ValueLayout.JAVA_INT, o + WC_FLAGS, flags);
        count++;
    }

    /**
     * Removes every completion of QP {@code qpNum}, keeping the others in their order (what mlx5's
     * {@code __mlx5_cq_clean} does at ibv_destroy_qp(3)).
     *
     * @param qpNum the QP number
     * @return completions removed
     */
    public int removeQp(int qpNum) {
        int kept = 0;
        for (int k = 0; k < count; k++) {
            long from = ((head + k) & (capacity - 1)) * SIZE;
            if (ring.get(ValueLayout.JAVA_INT, from + QP_NUM) == qpNum) {
                continue;
            }
            long to = ((head + kept) & (capacity - 1)) * SIZE;
            if (to != from) {
                MemorySegment.copy(ring, from, ring, to, SIZE);
            }
            kept++;
        }
        int removed = count - kept;
        count = kept;
        return removed;
    }

    private void grow() {
        int bigger = capacity * 2;
        MemorySegment next = arena.allocate(ibv_wc.layout(), bigger);
        int first = Math.min(count, capacity - head);
        MemorySegment.copy(ring, head * SIZE, next, 0, first * SIZE);
        MemorySegment.copy(ring, 0, next, first * SIZE, (long) (count - first) * SIZE);
        ring = next;
        capacity = bigger;
        head = 0;
    }

    /**
     * Moves up to {@code max} completions, oldest first, to {@code wcs} from index 0.
     *
     * @param wcs the array
     * @param max at most this many, ≤ wcs.capacity()
     * @return how many were moved
     */
    public int pollInto(WorkCompletionArray wcs, int max) {
        int n = Math.min(count, max);
        if (n <= 0) {
            return 0;
        }
        MemorySegment out = wcs.segment();
        int first = Math.min(n, capacity - head);
        MemorySegment.copy(ring, head * SIZE, out, 0, first * SIZE);
        if (n > first) {
            MemorySegment.copy(ring, 0, out, first * SIZE, (long) (n - first) * SIZE);
        }
        head = (head + n) & (capacity - 1);
        count -= n;
        return n;
    }
}
