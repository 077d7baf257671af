package io.rdma.srq.ra.support.admission;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;

/**
 * A shared HMAC-SHA-256 key (RFC 2104, FIPS 198-1) and its 4-byte key id: the first bytes of
 * HMAC(key, "srq-admission key id"), so a token names its key without revealing it and keys can be
 * rotated (a listener accepts any of its keys). The key bytes never appear in {@link #toString()}.
 */
public final class AuthKey {
    /** Fewest key bytes: 256 bits, the HMAC-SHA-256 block's security level (NIST SP 800-107 §5.3.4). */
    public static final int MIN_BYTES = 32;
    static final String HMAC = "HmacSHA256";
    private static final byte[] ID_LABEL = "srq-admission key id".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final String alias;
    private final SecretKeySpec key;
    private final byte[] id;

    /**
     * @param alias the key's name in the resource adapter's authKeys
     * @param bytes the key, at least {@value #MIN_BYTES} bytes (copied)
     * @throws IllegalArgumentException for a shorter key
     */
    public AuthKey(String alias, byte[] bytes) {
        if (bytes.length < MIN_BYTES) {
            throw new IllegalArgumentException("key '" + alias + "' has " + bytes.length + " bytes; at least "
                    + MIN_BYTES + " (256 bits) are needed");
        }
        this.alias = alias;
        this.key = new SecretKeySpec(bytes, HMAC);
        this.id = Arrays.copyOf(mac(ID_LABEL), PeerToken.KEY_ID_BYTES);
    }

    /** {@return the key's alias} */
    public String alias() {
        return alias;
    }

    /** {@return a copy of the key id, {@value PeerToken#KEY_ID_BYTES} bytes} */
    public byte[] id() {
        return id.clone();
    }

    boolean hasId(byte[] b, int offset) {
        return Arrays.equals(id, 0, id.length, b, offset, offset + id.length);
    }

    /** {@return HMAC-SHA-256 of the parts, 32 bytes} */
    byte[] mac(byte[]... parts) {
        try {
            Mac m = Mac.getInstance(HMAC);
            m.init(key);
            for (byte[] p : parts) {
                m.update(p);
            }
            return m.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is a required JCA algorithm", e);
        }
    }

    /** {@return whether the first {@code length} bytes of both agree, in time independent of where they differ} */
    static boolean sameMac(byte[] expected, byte[] actual, int offset, int length) {
        return MessageDigest.isEqual(Arrays.copyOf(expected, length), Arrays.copyOfRange(actual, offset, offset + length));
    }

    @Override
    public String toString() {
        return "AuthKey[" + alias + ", id " + java.util.HexFormat.of().formatHex(id) + "]";
    }
}
