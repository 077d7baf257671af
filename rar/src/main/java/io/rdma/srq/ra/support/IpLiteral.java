package io.rdma.srq.ra.support;

import java.net.InetAddress;
import java.util.regex.Pattern;

/**
 * IP address literals as an operator writes them in a property: IPv4 in dotted-quad form (four
 * decimal parts 0..255, no leading zeros), IPv6 in the text forms of RFC 4291 section 2.2 (it contains
 * a colon). {@link InetAddress#ofLiteral} alone also takes inet_aton(3)'s shorthand forms — {@code 0}
 * (0.0.0.0), {@code 2147483648} (128.0.0.0), {@code 10.1} (10.0.0.1) — which name another address
 * than the one meant; they are refused here.
 */
public final class IpLiteral {
    private static final String OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])";
    private static final Pattern DOTTED_QUAD = Pattern.compile(OCTET + "(\\." + OCTET + "){3}");

    private IpLiteral() {
    }

    /**
     * @param text the literal (surrounding white space is ignored)
     * @return the address
     * @throws IllegalArgumentException when {@code text} is neither a dotted quad nor an IPv6 literal
     */
    public static InetAddress parse(String text) {
        String t = text == null ? "" : text.trim();
        if (t.indexOf(':') >= 0 || DOTTED_QUAD.matcher(t).matches()) {
            return InetAddress.ofLiteral(t); // IllegalArgumentException for a malformed IPv6 literal
        }
        throw new IllegalArgumentException("'" + t + "' is not an IPv4 address in dotted-quad form (a.b.c.d) or an "
                + "IPv6 address");
    }
}
