package io.rdma.srq.ra.support;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.MemlockLimit;
import io.rdma.srq.verbs.PinnedMemory;
import jakarta.resource.ResourceException;

/**
 * Refuses, before anything is registered, an activation or a pooled connection whose registered memory
 * the kernel would not pin: ibv_reg_mr(3) fails with ENOMEM past RLIMIT_MEMLOCK (see
 * {@link MemlockLimit}), and an operator who sees ENOMEM blames the Java heap. The soft device pins
 * nothing, so the check applies to devices of the ibverbs provider. Memory registered later (a
 * connection's send ring, at its first send) is checked the same way when it is registered.
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
        String refused = refusal(what, provider, bytes);
        if (refused != null) {
            throw new ResourceException(refused + "; or lower srqMaxWr × the buffer size");
        }
    }

    /**
     * The same check for memory registered while the activation or connection runs: a connection's
     * send ring of {@value RcConnection#SEND_DEPTH} slots, registered at its first send (a reply),
     * so that one connection too many fails with a message naming the limit instead of ibv_reg_mr's
     * bare ENOMEM.
     *
     * @param what     the connection, for the message
     * @param provider the verbs provider's name ({@code ibverbs} or {@code soft})
     * @param bytes    what it is about to register, in bytes
     * @param property the configuration property that sets the slot size
     * @throws VerbsException ENOMEM when {@code bytes} more would not fit under RLIMIT_MEMLOCK, naming
     *                        the sizes, the limit, LimitMEMLOCK= / ulimit -l and {@code property}
     */
    public void checkRegistration(String what, String provider, long bytes, String property) throws VerbsException {
        String refused = refusal(what, provider, bytes);
        if (refused != null) {
            throw new VerbsException("ibv_reg_mr", Errno.ENOMEM, refused + "; or lower " + property);
        }
    }

    /** @return why {@code bytes} more cannot be pinned, or null when they can (or the provider pins nothing) */
    private String refusal(String what, String provider, long bytes) {
        if (!"ibverbs".equals(provider)) {
            return null;
        }
        long pinned = PinnedMemory.pinnedBytes();
        return limit.fits(pinned, bytes) ? null : what + " needs " + bytes + " bytes of registered (pinned) memory,"
                + " which the kernel will not pin: " + limit.describe(pinned);
    }

    /** {@return a line for the log at start: the limit and what is pinned now} */
    public String describe() {
        return limit.describe(PinnedMemory.pinnedBytes());
    }
}
