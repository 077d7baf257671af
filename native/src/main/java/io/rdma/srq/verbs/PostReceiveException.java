package io.rdma.srq.verbs;

import io.rdma.srq.api.VerbsException;

import java.io.Serial;

/**
 * A receive WR chain was only partly posted: {@link #failedIndex()} is the first WR the device
 * refused (ibv_post_srq_recv's {@code bad_wr}); those before it are posted and will complete.
 */
public class PostReceiveException extends VerbsException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** The index of the first WR not posted. */
    private final int failedIndex;

    /**
     * A partly posted chain.
     *
     * @param errno       the errno ibv_post_srq_recv returned ({@code ENOMEM} when full)
     * @param failedIndex the index of bad_wr in the chain
     * @param count       the chain length
     */
    public PostReceiveException(int errno, int failedIndex, int count) {
        super("ibv_post_srq_recv", errno, "posted " + failedIndex + " of " + count + " receive WRs");
        this.failedIndex = failedIndex;
    }

    /** {@return the index of the first WR not posted, = the number that were posted} */
    public int failedIndex() {
        return failedIndex;
    }
}
