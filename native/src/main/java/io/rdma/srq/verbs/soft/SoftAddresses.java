package io.rdma.srq.verbs.soft;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The IP addresses the soft host's "netdevs" have: what the soft rdma_cm lets a listener bind to,
 * as the kernel's rdma_bind_addr(3) binds only an address some interface has (else EADDRNOTAVAIL).
 * They are the wildcard, loopback (127.0.0.0/8, ::1: rdma_cm binds loopback to a device), every
 * soft device's own addresses (its GIDs: {@code 10.77.1.<n>} IPv4-mapped, and its link-local
 * {@code fe80::}) and the CIDRs of system
 * property {@value #PROPERTY} — by default {@value #DEFAULT_EXTRA}, the addresses the README, the
 * demo and the tests listen on. Read once, when the soft provider is first used.
 */
final class SoftAddresses {
    /** System property: comma-separated CIDRs (IPv4 or IPv6) the soft host owns besides loopback and its devices'. */
    static final String PROPERTY = "io.rdma.srq.soft.addresses";
    /** What {@value #PROPERTY} is when not set. */
    static final String DEFAULT_EXTRA = "10.0.0.0/24";

    private static final List<byte[][]> EXTRA = parse(System.getProperty(PROPERTY, DEFAULT_EXTRA));

    private SoftAddresses() {
    }

    /**
     * @param address an address to bind
     * @return whether a soft netdev has it (or it is the wildcard)
     */
    static boolean owned(InetAddress address) {
        if (address.isAnyLocalAddress() || address.isLoopbackAddress() || deviceOf(address).isPresent()) {
            return true;
        }
        byte[] a = address.getAddress();
        for (byte[][] net : EXTRA) {
            if (matches(net[0], net[1][0] & 0xff, a)) {
                return true;
            }
        }
        return false;
    }

    /** {@return the soft device whose GID {@code address} is (IPv4 as its IPv4-mapped GID), if any} */
    static java.util.Optional<SoftDevice> deviceOf(InetAddress address) {
        byte[] a = address.getAddress();
        byte[] gid = new byte[16];
        if (a.length == 4) {
            gid[10] = (byte) 0xff;
            gid[11] = (byte) 0xff;
            System.arraycopy(a, 0, gid, 12, 4);
        } else {
            System.arraycopy(a, 0, gid, 0, 16);
        }
        for (SoftProfile p : SoftProfile.values()) {
            if (SoftFabric.device(p).ownsGid(gid)) {
                return java.util.Optional.of(SoftFabric.device(p));
            }
        }
        return java.util.Optional.empty();
    }

    /** {@return what a message says the soft host owns} */
    static String describe() {
        return "the wildcard, loopback, the soft devices' GIDs (10.77.1.<n>, fe80::…) and " + System.getProperty(PROPERTY, DEFAULT_EXTRA)
                + " (system property " + PROPERTY + ")";
    }

    private static boolean matches(byte[] net, int prefix, byte[] a) {
        if (net.length != a.length) {
            return false;
        }
        for (int bit = 0; bit < prefix; bit++) {
            int mask = 0x80 >>> (bit & 7);
            if ((net[bit >> 3] & mask) != (a[bit >> 3] & mask)) {
                return false;
            }
        }
        return true;
    }

    /** CIDRs {@code a.b.c.d/n} or {@code x::/n}; a bad entry fails the soft provider's first use, naming the property. */
    private static List<byte[][]> parse(String text) {
        List<byte[][]> nets = new ArrayList<>();
        for (String cidr : text.split(",")) {
            String c = cidr.trim();
            if (c.isEmpty()) {
                continue;
            }
            try {
                int slash = c.indexOf('/');
                byte[] net = InetAddress.ofLiteral(slash < 0 ? c : c.substring(0, slash)).getAddress();
                int prefix = slash < 0 ? net.length * 8 : Integer.parseInt(c.substring(slash + 1));
                if (prefix < 0 || prefix > net.length * 8) {
                    throw new IllegalArgumentException("prefix " + prefix);
                }
                nets.add(new byte[][] {net, {(byte) prefix}});
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(PROPERTY + " must be CIDRs separated by commas, e.g. 10.0.0.0/24, got '"
                        + c + "'", e);
            }
        }
        return List.copyOf(nets);
    }
}
