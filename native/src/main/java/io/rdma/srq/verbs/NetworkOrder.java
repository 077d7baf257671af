package io.rdma.srq.verbs;

import java.nio.ByteOrder;

/** ntohl/htonl and 64-bit big-endian conversions for {@code __be32}/{@code __be64} fields. */
public final class NetworkOrder {
    private static final boolean SWAP = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private NetworkOrder() {
    }

    /**
     * {@return it converted (the conversion is its own inverse)}
     *
     * @param v a 32-bit value in either order
     */
    public static int swap32(int v) {
        return SWAP ? Integer.reverseBytes(v) : v;
    }

    /**
     * {@return it converted}
     *
     * @param v a 64-bit value in either order
     */
    public static long swap64(long v) {
        return SWAP ? Long.reverseBytes(v) : v;
    }
}
