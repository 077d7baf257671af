package io.rdma.srq.api;

import java.nio.ByteBuffer;

/**
 * What every message the adapter hands over has, under the same names: the bytes
 * ({@link #payload()}, {@link #copyPayload()}), their length ({@link #length()}, the receive
 * completion's byte_len, ibv_poll_cq(3)) and the sender's immediate data. The family:
 * <ul>
 *   <li>{@link ReceiveCompletion} — what a listener sees during its call, in the receive buffer;</li>
 *   <li>{@link RetainedMessage} — one kept in its receive buffer past the call, until released;</li>
 *   <li>{@link ReceivedMessage} — an owned copy, with the way back to the sender;</li>
 *   <li>{@link SrqDeadLetter} — one given up after its last delivery attempt, with its {@code time()};</li>
 *   <li>the reply of {@link SrqPeer#call} and what {@link SrqPeer#receive} takes — a copy
 *       ({@link #of}).</li>
 * </ul>
 */
public interface SrqMessage {

    /**
     * {@return a read-only view of the message bytes, positioned at 0 with {@link #length()}
     *          remaining; a fresh view on each call}
     *
     * @throws IllegalStateException where the type says so (a completion after its call, a retained
     *                               message after release)
     */
    ByteBuffer payload();

    /** {@return the message length in bytes (byte_len of the receive completion)} */
    int length();

    /**
     * {@return a copy of the bytes}
     *
     * @throws IllegalStateException where {@link #payload()} throws it
     */
    byte[] copyPayload();

    /** {@return whether the sender used SEND_WITH_IMM (IBV_WC_WITH_IMM)} */
    boolean hasImmData();

    /** {@return imm_data in host byte order, 0 when {@link #hasImmData()} is false} */
    int immData();

    /**
     * {@return an immutable message owning {@code bytes} (not copied: the caller gives them up)}
     *
     * @param bytes      the message bytes
     * @param hasImmData whether the sender used SEND_WITH_IMM
     * @param immData    imm_data in host order, 0 without
     * @throws NullPointerException a null {@code bytes}
     */
    static SrqMessage of(byte[] bytes, boolean hasImmData, int immData) {
        return new OwnedMessage(bytes, hasImmData, immData);
    }
}
