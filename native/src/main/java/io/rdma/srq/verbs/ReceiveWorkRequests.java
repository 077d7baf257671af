package io.rdma.srq.verbs;

import io.rdma.srq.verbs.ffi.ibverbs.ibv_recv_wr;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_sge;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A reusable native chain of receive work requests ({@code struct ibv_recv_wr}), each with one
 * scatter/gather element ({@code struct ibv_sge}), for {@link SharedReceiveQueue#postReceive}.
 * The WRs are pre-linked once; a post of {@code n} terminates the chain at {@code n − 1} for the
 * call and restores the link afterwards, so posting allocates nothing.
 *
 * <p>Not thread-safe: one instance per posting thread.
 */
public final class ReceiveWorkRequests implements AutoCloseable {
    private static final long WR_SIZE = ibv_recv_wr.sizeof();
    private static final long SGE_SIZE = ibv_sge.sizeof();
    private static final long WR_ID = ibv_recv_wr.wr_id$offset();
    private static final long NEXT = ibv_recv_wr.next$offset();
    private static final long SG_LIST = ibv_recv_wr.sg_list$offset();
    private static final long NUM_SGE = ibv_recv_wr.num_sge$offset();
    private static final long SGE_ADDR = ibv_sge.addr$offset();
    private static final long SGE_LENGTH = ibv_sge.length$offset();
    private static final long SGE_LKEY = ibv_sge.lkey$offset();
    private static final AddressLayout POINTER = ValueLayout.ADDRESS;

    private final Arena arena;
    private final MemorySegment wrs;
    private final MemorySegment sges;
    private final MemorySegment badWr;
    private final int capacity;
    /** Cleared by {@link #close()}; a plain field, as the instance belongs to one thread. */
    private boolean open = true;

    /**
     * Allocates the chain and links it once (in its own shared arena, freed by {@link #close()}).
     *
     * @param capacity the longest chain, 1..65536
     * @throws IllegalArgumentException if capacity is out of range
     */
    public ReceiveWorkRequests(int capacity) {
        if (capacity < 1 || capacity > 65536) {
            throw new IllegalArgumentException("receive WR chain capacity must be in 1..65536, got " + capacity);
        }
        this.capacity = capacity;
        this.arena = Arena.ofShared();
        this.wrs = arena.allocate(ibv_recv_wr.layout(), capacity);
        this.sges = arena.allocate(ibv_sge.layout(), capacity);
        this.badWr = arena.allocate(POINTER);
        for (int i = 0; i < capacity; i++) {
            long wr = i * WR_SIZE;
            wrs.set(POINTER, wr + SG_LIST, sges.asSlice(i * SGE_SIZE));
            wrs.set(ValueLayout.JAVA_INT, wr + NUM_SGE, 1);
            wrs.set(POINTER, wr + NEXT, i + 1 < capacity ? wrs.asSlice((i + 1) * WR_SIZE) : MemorySegment.NULL);
        }
    }

    /**
     * {@return the longest chain}
     *
     * @throws IllegalStateException if closed
     */
    public int capacity() {
        ensureOpen();
        return capacity;
    }

    private void ensureOpen() {
        if (!open) {
            throw new IllegalStateException("receive WR chain is closed");
        }
    }

    /**
     * Fills WR {@code i}.
     *
     * @param i      the index, 0..capacity − 1
     * @param wrId   the wr_id its completion will carry (e.g. a buffer index)
     * @param addr   the buffer address inside a registered MR
     * @param length the buffer length in bytes
     * @param lkey   the MR's lkey
     * @throws IllegalStateException if closed
     */
    public void set(int i, long wrId, long addr, int length, int lkey) {
        long wr = (long) i * WR_SIZE;
        long sge = (long) i * SGE_SIZE;
        wrs.set(ValueLayout.JAVA_LONG, wr + WR_ID, wrId);
        sges.set(ValueLayout.JAVA_LONG, sge + SGE_ADDR, addr);
        sges.set(ValueLayout.JAVA_INT, sge + SGE_LENGTH, length);
        sges.set(ValueLayout.JAVA_INT, sge + SGE_LKEY, lkey);
    }

    /**
     * Points {@link #badWrCell()} at entry {@code i}, as a provider that reads the chain by index
     * reports the first WR it refused (ibv_post_srq_recv(3) {@code bad_wr}).
     *
     * @param i entry index, 0..capacity − 1
     */
    public void markBad(int i) {
        ensureOpen();
        badWr.set(POINTER, 0, wrs.asSlice((long) i * WR_SIZE));
    }

    /**
     * {@return the wr_id of entry {@code i}, as {@link #set} wrote it} For providers that read the
     * chain by index instead of along its {@code next} pointers.
     *
     * @param i entry index, 0..capacity − 1
     */
    public long wrId(int i) {
        return wrs.get(ValueLayout.JAVA_LONG, (long) i * WR_SIZE + WR_ID);
    }

    /**
     * {@return the address of entry {@code i}'s one SGE}
     *
     * @param i entry index, 0..capacity − 1
     */
    public long address(int i) {
        return sges.get(ValueLayout.JAVA_LONG, (long) i * SGE_SIZE + SGE_ADDR);
    }

    /**
     * {@return the length in bytes of entry {@code i}'s one SGE}
     *
     * @param i entry index, 0..capacity − 1
     */
    public int length(int i) {
        return sges.get(ValueLayout.JAVA_INT, (long) i * SGE_SIZE + SGE_LENGTH);
    }

    /**
     * {@return the lkey of entry {@code i}'s one SGE}
     *
     * @param i entry index, 0..capacity − 1
     */
    public int lkey(int i) {
        return sges.get(ValueLayout.JAVA_INT, (long) i * SGE_SIZE + SGE_LKEY);
    }

    /**
     * For providers: terminates the chain after {@code count} WRs. Pair with {@link #relink}.
     *
     * @param count 1..capacity
     * @return the head WR
     * @throws IllegalArgumentException if count is out of range
     * @throws IllegalStateException    if closed
     */
    public MemorySegment terminate(int count) {
        ensureOpen();
        if (count < 1 || count > capacity) {
            throw new IllegalArgumentException("count must be in 1.." + capacity + ", got " + count);
        }
        wrs.set(POINTER, (count - 1) * WR_SIZE + NEXT, MemorySegment.NULL);
        return wrs;
    }

    /**
     * For providers: restores the link after {@code count − 1} that {@link #terminate} cut.
     *
     * @param count the count given to terminate
     * @throws IllegalStateException if closed
     */
    public void relink(int count) {
        ensureOpen();
        if (count < capacity) {
            wrs.set(POINTER, (count - 1) * WR_SIZE + NEXT, wrs.asSlice(count * WR_SIZE));
        }
    }

    /**
     * For providers that read the chain in Java (the soft device): the array of {@code struct ibv_sge}
     * the WRs' {@code sg_list} pointers point into, one per WR. Like the chain it is bound to this
     * object's arena, so a read after {@link #close()} throws instead of touching freed memory.
     *
     * @return the SGE array, {@code capacity × sizeof(struct ibv_sge)} bytes
     * @throws IllegalStateException if closed
     */
    public MemorySegment sgeList() {
        ensureOpen();
        return sges;
    }

    /**
     * {@return the out-parameter cell for {@code bad_wr}}
     *
     * @throws IllegalStateException if closed
     */
    public MemorySegment badWrCell() {
        ensureOpen();
        return badWr;
    }

    /**
     * For providers: the index of the WR {@code bad_wr} points at.
     *
     * @return the index, or −1 if bad_wr is not in this chain
     * @throws IllegalStateException if closed
     */
    public int badWrIndex() {
        long bad = badWr.get(POINTER, 0).address() - wrs.address();
        return bad >= 0 && bad < capacity * WR_SIZE && bad % WR_SIZE == 0 ? (int) (bad / WR_SIZE) : -1;
    }

    /** Frees the native chain. Idempotent. */
    @Override
    public void close() {
        open = false;
        if (arena.scope().isAlive()) {
            arena.close();
        }
    }
}
