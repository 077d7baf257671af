package io.rdma.srq.api;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * A message that owns its bytes, immutable: {@link SrqMessage#of}, and the part of
 * {@link ReceivedMessage} and {@link SrqDeadLetter} that every message has.
 */
class OwnedMessage implements SrqMessage {
    private final byte[] bytes;
    private final boolean hasImmData;
    private final int immData;

    OwnedMessage(byte[] bytes, boolean hasImmData, int immData) {
        this.bytes = Objects.requireNonNull(bytes, "bytes");
        this.hasImmData = hasImmData;
        this.immData = hasImmData ? immData : 0;
    }

    /** {@return a read-only view of the bytes (a fresh view on each call; any thread, any time)} */
    @Override
    public ByteBuffer payload() {
        return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
    }

    @Override
    public int length() {
        return bytes.length;
    }

    @Override
    public byte[] copyPayload() {
        return bytes.clone();
    }

    @Override
    public boolean hasImmData() {
        return hasImmData;
    }

    @Override
    public int immData() {
        return immData;
    }

    /** Same class, same bytes and immediate data; subclasses add their own fields. */
    @Override
    public boolean equals(Object o) {
        return o != null && o.getClass() == getClass() && o instanceof OwnedMessage m && hasImmData == m.hasImmData
                && immData == m.immData && Arrays.equals(bytes, m.bytes);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(bytes) + (hasImmData ? immData : -1);
    }

    /** {@return "byte_len=N" and ", imm_data=M" when there is immediate data} */
    final String describeBytes() {
        return "byte_len=" + bytes.length + (hasImmData ? ", imm_data=" + immData : "");
    }

    @Override
    public String toString() {
        return "SrqMessage[" + describeBytes() + "]";
    }
}
