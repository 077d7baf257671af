package io.rdma.srq.verbs.spi;

import java.nio.ByteOrder;

/** ntohl/htonl and 64-bit big-endian conversions for {@code __be32}/{@code __be64} fields. */
public final class NetworkOrder {
    private static final boolean SWAP = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private NetworkOrder() {
    }

    /** @param v a 32-bit value in either order @return it converted (the conversion is its own inverse) */
    public static int swap32(int v) {
        return SWAP ? Integer.reverseBytes(v) : v;
    }

    /** @param v a 64-bit value in either order @return it converted */
    public static long swap64(long v) {
        return SWAP ? Long.reverseBytes(v) : v;
    }
}
