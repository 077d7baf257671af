package io.rdma.srq.api;

import java.io.Serial;

/**
 * Thrown by {@link SrqBatchListener#onReceive} to say which message of the batch failed: the ones
 * before {@link #index()} are done, that one failed (its cause is the delivery's failure), the
 * ones after it are delivered again in a later call.
 */
public final class SrqBatchFailure extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** The failed message's position in the batch. */
    private final int index;

    /**
     * Reports the failed message.
     *
     * @param index the failed message's position in the batch, 0..size − 1 (an index outside the
     *              batch makes the adapter retry the batch one message at a time)
     * @param cause why it failed
     */
    public SrqBatchFailure(int index, Throwable cause) {
        super("message " + index + " of the batch failed", cause);
        this.index = index;
    }

    /** {@return the failed message's position in the batch} */
    public int index() {
        return index;
    }
}
