package io.rdma.srq.api;

import java.util.Set;

/**
 * Memory registration access flags ({@code enum ibv_access_flags}, ibv_reg_mr(3)). Receive
 * buffers need only {@link #LOCAL_WRITE}; give remote access explicitly and only where needed.
 */
public enum AccessFlag {
    LOCAL_WRITE(1), REMOTE_WRITE(1 << 1), REMOTE_READ(1 << 2), REMOTE_ATOMIC(1 << 3), MW_BIND(1 << 4),
    ZERO_BASED(1 << 5), ON_DEMAND(1 << 6), HUGETLB(1 << 7), RELAXED_ORDERING(1 << 20);

    private final int mask;

    AccessFlag(int mask) {
        this.mask = mask;
    }

    /** @return the C bit */
    public int mask() {
        return mask;
    }

    /**
     * @param flags a set of flags
     * @return their C bit mask
     */
    public static int toMask(Set<AccessFlag> flags) {
        int m = 0;
        for (AccessFlag f : flags) {
            m |= f.mask;
        }
        return m;
    }
}
