package io.rdma.srq.api;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A message received through a pooled SRQ: the reply of a {@link SrqPeer#call} or a message the
 * peer sent on its own ({@link SrqPeer#receive}). The bytes are a copy taken before the receive
 * buffer went back to the SRQ, so the message stays valid for as long as it is kept.
 *
 * @param bytes      the message bytes ({@code byte_len} of the receive completion, ibv_poll_cq(3))
 * @param hasImmData whether the sender used SEND_WITH_IMM (IBV_WC_WITH_IMM)
 * @param immData    imm_data in host order, 0 when {@code hasImmData} is false
 */
public record SrqMessage(byte[] bytes, boolean hasImmData, int immData) {

    /**
     * A message.
     *
     * @param bytes      the message bytes, not copied
     * @param hasImmData whether imm_data is present
     * @param immData    imm_data in host order
     */
    public SrqMessage {
        Objects.requireNonNull(bytes, "bytes");
    }

    /** {@return the message length in bytes (byte_len)} */
    public int length() {
        return bytes.length;
    }

    /** {@return a read-only view of the bytes} */
    public ByteBuffer payload() {
        return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
    }
}
