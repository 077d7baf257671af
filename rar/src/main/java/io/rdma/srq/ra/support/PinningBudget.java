package io.rdma.srq.ra.support;

import io.rdma.srq.verbs.MemlockLimit;
import io.rdma.srq.verbs.PinnedMemory;
import jakarta.resource.ResourceException;

/**
 * Refuses, before anything is registered, an activation or a pooled connection whose registered memory
 * the kernel would not pin: ibv_reg_mr(3) fails with ENOMEM past RLIMIT_MEMLOCK (see
 * {@link MemlockLimit}), and an operator who sees ENOMEM blames the Java heap. The soft device pins
 * nothing, so the check applies to devices of the ibverbs provider.
 */
public final class PinningBudget {
    private final MemlockLimit limit;

    /** @param limit the process's limit, normally {@link MemlockLimit#ofThisProcess()} */
    public PinningBudget(MemlockLimit limit) {
        this.limit = limit;
    }

    /**
     * @param what     the activation or connection definition, for the message
     * @param provider the verbs provider's name ({@code ibverbs} or {@code soft})
     * @param bytes    what it is about to register: receive slab plus send slots, in bytes
     * @throws ResourceException when {@code bytes} more would not fit under RLIMIT_MEMLOCK, naming the
     *                           sizes, the limit and LimitMEMLOCK= / ulimit -l
     */
    public void check(String what, String provider, long bytes) throws ResourceException {
        if (!"ibverbs".equals(provider)) {
            return;
        }
        long pinned = PinnedMemory.pinnedBytes();
        if (!limit.fits(pinned, bytes)) {
            throw new ResourceException(what + " needs " + bytes + " bytes of registered (pinned) memory, which the"
                    + " kernel will not pin: " + limit.describe(pinned)
                    + "; or lower srqMaxWr × the buffer size");
        }
    }

    /** {@return a line for the log at start: the limit and what is pinned now} */
    public String describe() {
        return limit.describe(PinnedMemory.pinnedBytes());
    }
}
