package io.rdma.srq.api;

import java.util.Objects;

/**
 * A delivered message the application owns ({@link ReceiveCompletion#copy()}): the bytes were copied
 * out of the receive buffer during the listener call, so it is immutable, holds no buffer of the
 * SRQ, and may be used from any thread for as long as it is kept — handed to a
 * {@code CompletableFuture}, a managed executor, a parallel stream. {@link #replyHandle()} answers
 * the sender while its connection lasts.
 *
 * <p>Made by the adapter ({@link #of}); a later version may add accessors, never remove one.
 */
public final class ReceivedMessage extends OwnedMessage {
    private final int deliveryAttempt;
    private final ReplyHandle replyHandle;

    private ReceivedMessage(byte[] bytes, boolean hasImmData, int immData, int deliveryAttempt,
                            ReplyHandle replyHandle) {
        super(bytes, hasImmData, immData);
        this.deliveryAttempt = deliveryAttempt;
        this.replyHandle = Objects.requireNonNull(replyHandle, "replyHandle");
    }

    /**
     * A message (the adapter's factory).
     *
     * @param bytes           the message bytes, kept (not copied again): the caller gives them up
     * @param hasImmData      whether the sender used SEND_WITH_IMM (IBV_WC_WITH_IMM)
     * @param immData         imm_data in host order, 0 without
     * @param deliveryAttempt the delivery attempt it was copied in, ≥ 1
     * @param replyHandle     the way back to its connection
     * @return the message
     */
    public static ReceivedMessage of(byte[] bytes, boolean hasImmData, int immData, int deliveryAttempt,
                                     ReplyHandle replyHandle) {
        return new ReceivedMessage(bytes, hasImmData, immData, deliveryAttempt, replyHandle);
    }

    /** {@return the id of the connection it arrived on, never reused ({@link ReplyHandle#connectionId()})} */
    public long connectionId() {
        return replyHandle.connectionId();
    }

    /** {@return the delivery attempt during which it was copied, from 1} */
    public int deliveryAttempt() {
        return deliveryAttempt;
    }

    /** {@return the way back to the sender, usable while the connection lasts (then ENOTCONN)} */
    public ReplyHandle replyHandle() {
        return replyHandle;
    }

    @Override
    public boolean equals(Object o) {
        return super.equals(o) && o instanceof ReceivedMessage m && deliveryAttempt == m.deliveryAttempt
                && connectionId() == m.connectionId();
    }

    @Override
    public int hashCode() {
        return Objects.hash(super.hashCode(), deliveryAttempt, connectionId());
    }

    @Override
    public String toString() {
        return "ReceivedMessage[" + describeBytes() + ", connection=" + connectionId() + ", attempt="
                + deliveryAttempt + "]";
    }
}
