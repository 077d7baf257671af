package io.rdma.srq.it.mdb;

import io.rdma.srq.api.ReceiveCompletion;

import java.nio.ByteBuffer;

/**
 * The test messages: {@code size} bytes, the sequence number (big-endian int) first, then a marker
 * byte naming the stream, then filler; sent with the sequence number as immediate data too.
 */
public final class Messages {
    /** The rdma_cm address every test activation listens on (any address works on the soft device). */
    public static final String ADDRESS = "10.0.0.1";
    /** Bytes per test message. */
    public static final int SIZE = 32;

    private Messages() {
    }

    /**
     * @param into   a buffer of at least {@link #SIZE} bytes; cleared and filled
     * @param seq    the sequence number
     * @param marker the stream's marker
     * @return {@code into}, ready to send
     */
    public static ByteBuffer encode(ByteBuffer into, int seq, byte marker) {
        into.clear().limit(SIZE);
        into.putInt(0, seq).put(4, marker);
        for (int i = 5; i < SIZE; i++) {
            into.put(i, (byte) (seq + i));
        }
        return into;
    }

    /**
     * @param c      a receive completion
     * @param marker the marker expected
     * @return null if {@code c} is a well-formed message of the stream, else what is wrong
     */
    public static String check(ReceiveCompletion c, byte marker) {
        if (!c.hasImmData()) {
            return "no immediate data (connection " + c.connectionId() + ")";
        }
        if (c.length() != SIZE) {
            return "byte_len " + c.length() + " for message " + c.immData();
        }
        ByteBuffer p = c.payload();
        if (p.getInt(p.position()) != c.immData()) {
            return "payload says " + p.getInt(p.position()) + ", imm_data " + c.immData();
        }
        if (p.get(p.position() + 4) != marker) {
            return "message " + c.immData() + " of stream '" + (char) p.get(p.position() + 4) + "' arrived at '"
                    + (char) marker + "'";
        }
        return null;
    }
}
