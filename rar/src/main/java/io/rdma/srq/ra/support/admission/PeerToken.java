package io.rdma.srq.ra.support.admission;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.List;

/**
 * The token a connect request carries in its private data, {@value #LENGTH} bytes (an InfiniBand
 * connect carries 56, see driver note 19), big-endian:
 * <pre>
 *  0  4  magic "SRQT"           explicit, so "no private data" (56 zero bytes on IB and RoCE) is told apart
 *  4  1  version 1
 *  5  1  length {@value #LENGTH}
 *  6  4  key id                 {@link AuthKey#id()}
 * 10  8  timestamp              epoch milliseconds of the connecting side
 * 18 16  nonce                  random (SecureRandom)
 * 34 16  MAC                    HMAC-SHA-256(key, bytes 0..33 ‖ target address ‖ target port), first 16 bytes
 * </pre>
 * The target is the listener's address and port as the connecting side names it (an IPv4-mapped
 * address as IPv4): a token for one activation does not open another. A 128-bit truncated HMAC is
 * what RFC 4868 uses for HMAC-SHA-256-128. The token authenticates the peer; it does not protect the
 * connection's traffic afterwards (RDMA has no transport security).
 */
public final class PeerToken {
    /** Bytes of a token. */
    public static final int LENGTH = 50;
    /** Bytes of a key id. */
    public static final int KEY_ID_BYTES = 4;
    static final int NONCE_BYTES = 16;
    static final int MAC_BYTES = 16;
    private static final int SIGNED = 34;
    private static final byte[] MAGIC = {'S', 'R', 'Q', 'T'};
    private static final byte VERSION = 1;
    private static final SecureRandom RANDOM = new SecureRandom();

    private PeerToken() {
    }

    /**
     * Makes a token.
     *
     * @param key    the key
     * @param target the listener connected to
     * @param now    epoch milliseconds
     * @return {@value #LENGTH} bytes for the connect's private data
     */
    public static byte[] create(AuthKey key, InetSocketAddress target, long now) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        return create(key, target, now, nonce);
    }

    static byte[] create(AuthKey key, InetSocketAddress target, long now, byte[] nonce) {
        ByteBuffer b = ByteBuffer.allocate(LENGTH);
        b.put(MAGIC).put(VERSION).put((byte) LENGTH).put(key.id()).putLong(now).put(nonce);
        byte[] t = b.array();
        System.arraycopy(key.mac(java.util.Arrays.copyOf(t, SIGNED), target(target)), 0, t, SIGNED, MAC_BYTES);
        return t;
    }

    /** {@return whether the private data starts as a token does (magic and version)} */
    static boolean present(byte[] privateData) {
        return privateData.length >= MAGIC.length + 1 && java.util.Arrays.equals(privateData, 0, MAGIC.length, MAGIC, 0,
                MAGIC.length);
    }

    /**
     * Checks a request's private data.
     *
     * @param privateData as received (maybe zero-padded)
     * @param keys        the keys accepted
     * @param target      the listener's address the request arrived at
     * @param now         the listener's clock, epoch milliseconds
     * @param maxAge      how far the timestamp may lie from {@code now}, milliseconds, either way
     * @param nonces      where a verified token's nonce is recorded
     * @return null when the token verifies and its nonce was new (now recorded), else why not
     */
    static RejectReason verify(byte[] privateData, List<AuthKey> keys, InetSocketAddress target, long now,
                               long maxAge, Nonces nonces) {
        if (!present(privateData)) {
            return RejectReason.NO_TOKEN;
        }
        if (privateData.length < LENGTH || privateData[4] != VERSION || Byte.toUnsignedInt(privateData[5]) != LENGTH) {
            return RejectReason.BAD_TOKEN;
        }
        AuthKey key = null;
        for (AuthKey k : keys) {
            if (k.hasId(privateData, 6)) {
                key = k;
                break;
            }
        }
        if (key == null) {
            return RejectReason.BAD_TOKEN;
        }
        byte[] scope = target(target);
        byte[] expected = key.mac(java.util.Arrays.copyOf(privateData, SIGNED), scope);
        if (!AuthKey.sameMac(expected, privateData, SIGNED, MAC_BYTES)) {
            return RejectReason.BAD_TOKEN;
        }
        long stamp = ByteBuffer.wrap(privateData, 10, 8).getLong();
        if (Math.abs(now - stamp) > maxAge) {
            return RejectReason.EXPIRED;
        }
        return nonces.record(key.id(), scope, java.util.Arrays.copyOfRange(privateData, 18, 18 + NONCE_BYTES), stamp);
    }

    /** Where the nonce of a token that verified goes ({@link ReplayScopes}, {@link ReplayCache}). */
    @FunctionalInterface
    interface Nonces {
        /**
         * @param keyId  the token's key id
         * @param target the target as the MAC binds it
         * @param nonce  the token's nonce
         * @param stamp  the token's timestamp, epoch milliseconds
         * @return null when new (now recorded), else REPLAYED, EXPIRED or REPLAY_CACHE_FULL
         */
        RejectReason record(byte[] keyId, byte[] target, byte[] nonce, long stamp);
    }

    private static byte[] target(InetSocketAddress target) {
        byte[] a = Cidr.normal(target.getAddress());
        return ByteBuffer.allocate(a.length + 2).put(a).putShort((short) target.getPort()).array();
    }
}
