package io.rdma.srq.api;

import java.util.Set;

/**
 * Memory registration access flags ({@code enum ibv_access_flags}, ibv_reg_mr(3)). Receive
 * buffers need only {@link #LOCAL_WRITE}; give remote access explicitly and only where needed.
 */
public enum AccessFlag {
    /** IBV_ACCESS_LOCAL_WRITE: the device may write the memory (every receive buffer needs it). */
    LOCAL_WRITE(1),
    /** IBV_ACCESS_REMOTE_WRITE: peers may RDMA-write it (needs LOCAL_WRITE). */
    REMOTE_WRITE(1 << 1),
    /** IBV_ACCESS_REMOTE_READ: peers may RDMA-read it. */
    REMOTE_READ(1 << 2),
    /** IBV_ACCESS_REMOTE_ATOMIC: peers may run atomic operations on it (needs LOCAL_WRITE). */
    REMOTE_ATOMIC(1 << 3),
    /** IBV_ACCESS_MW_BIND: memory windows may be bound to it. */
    MW_BIND(1 << 4),
    /** IBV_ACCESS_ZERO_BASED: remote addresses are offsets from the start of the MR. */
    ZERO_BASED(1 << 5),
    /** IBV_ACCESS_ON_DEMAND: on-demand paging (no pinning) where the device supports it. */
    ON_DEMAND(1 << 6),
    /** IBV_ACCESS_HUGETLB: the memory is backed by huge pages. */
    HUGETLB(1 << 7),
    /** IBV_ACCESS_RELAXED_ORDERING: the device may reorder its writes to it (PCIe relaxed ordering). */
    RELAXED_ORDERING(1 << 20);

    private final int mask;

    AccessFlag(int mask) {
        this.mask = mask;
    }

    /** {@return the C bit} */
    public int mask() {
        return mask;
    }

    /**
     * {@return their C bit mask}
     *
     * @param flags a set of flags
     */
    public static int toMask(Set<AccessFlag> flags) {
        int m = 0;
        for (AccessFlag f : flags) {
            m |= f.mask;
        }
        return m;
    }
}
