package io.rdma.srq.ra.support.admission;

import io.rdma.srq.ra.support.IpLiteral;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Arrays;

/**
 * One IPv4 or IPv6 prefix, {@code address/prefixLength} (RFC 4632, RFC 4291 §2.3). An IPv4-mapped
 * IPv6 address ({@code ::ffff:a.b.c.d}, as a RoCE v2 GID carries an IPv4 address) matches as IPv4.
 *
 * @param network      the network address, host bits cleared: 4 or 16 bytes
 * @param prefixLength 0..32 (IPv4) or 0..128 (IPv6)
 */
public record Cidr(byte[] network, int prefixLength) {

    /** Copies the bytes and checks the prefix length. */
    public Cidr {
        network = network.clone();
        if (network.length != 4 && network.length != 16 || prefixLength < 0 || prefixLength > network.length * 8) {
            throw new IllegalArgumentException("prefix length " + prefixLength + " for a " + network.length + "-byte address");
        }
        network = masked(network, prefixLength);
    }

    /**
     * Parses {@code a.b.c.d/n}, {@code x:y::z/n}, or an address alone (a /32 or /128).
     *
     * @param text the CIDR
     * @return the prefix
     * @throws IllegalArgumentException saying what is wrong (no host names: literals only)
     */
    public static Cidr parse(String text) {
        String t = text.trim();
        int slash = t.indexOf('/');
        String address = slash < 0 ? t : t.substring(0, slash);
        InetAddress a;
        try {
            a = IpLiteral.parse(address);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + t + "' is not an IPv4 or IPv6 address literal (with /prefix)");
        }
        byte[] bytes = normal(a);
        int max = bytes.length * 8;
        int prefix = max;
        if (slash >= 0) {
            String p = t.substring(slash + 1);
            if (!p.matches("\\d{1,3}") || Integer.parseInt(p) > max) {
                throw new IllegalArgumentException("'" + t + "': the prefix length must be 0.." + max);
            }
            prefix = Integer.parseInt(p);
        }
        if (!Arrays.equals(bytes, masked(bytes, prefix))) {
            throw new IllegalArgumentException("'" + t + "' has host bits set beyond /" + prefix
                    + " (did you mean " + new Cidr(bytes, prefix) + "?)");
        }
        return new Cidr(bytes, prefix);
    }

    /**
     * {@return whether {@code address} lies in this prefix}
     *
     * @param address a peer's address
     */
    public boolean contains(InetAddress address) {
        byte[] b = normal(address);
        return b.length == network.length && Arrays.equals(masked(b, prefixLength), network);
    }

    /** The address's bytes, an IPv4-mapped IPv6 address as its 4 IPv4 bytes. */
    static byte[] normal(InetAddress a) {
        byte[] b = a.getAddress();
        if (a instanceof Inet6Address && isV4Mapped(b)) {
            return Arrays.copyOfRange(b, 12, 16);
        }
        return b;
    }

    private static boolean isV4Mapped(byte[] b) {
        for (int i = 0; i < 10; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return b[10] == (byte) 0xff && b[11] == (byte) 0xff;
    }

    private static byte[] masked(byte[] b, int prefix) {
        byte[] m = b.clone();
        for (int i = 0; i < m.length; i++) {
            int bits = Math.clamp(prefix - 8L * i, 0, 8);
            m[i] &= (byte) (0xff << (8 - bits));
        }
        return m;
    }

    /** {@return a copy of the network address} */
    @Override
    public byte[] network() {
        return network.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Cidr c && c.prefixLength == prefixLength && Arrays.equals(c.network, network);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(network) + prefixLength;
    }

    @Override
    public String toString() {
        try {
            InetAddress a = network.length == 4 ? Inet4Address.getByAddress(network) : Inet6Address.getByAddress(network);
            return a.getHostAddress() + "/" + prefixLength;
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
