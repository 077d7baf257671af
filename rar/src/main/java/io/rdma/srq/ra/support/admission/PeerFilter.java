package io.rdma.srq.ra.support.admission;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The allowedPeers list: CIDRs a connect request's source address must lie in; an empty list lets
 * every address through. This is policy, not authentication: the address an rdma_cm listener sees
 * comes from the connect request the peer itself sends, which a host on the fabric can forge (RoCE v2
 * is UDP/IP). Only the token ({@link PeerToken}) authenticates.
 *
 * @param allowed the prefixes; empty allows all
 */
public record PeerFilter(List<Cidr> allowed) {

    /** Allows every address. */
    public static final PeerFilter ANY = new PeerFilter(List.of());

    /** Copies the list. */
    public PeerFilter {
        allowed = List.copyOf(allowed);
    }

    /**
     * Parses a comma- or whitespace-separated list of CIDRs.
     *
     * @param text the list, blank for none (all allowed)
     * @return the filter
     * @throws IllegalArgumentException naming the first malformed entry
     */
    public static PeerFilter parse(String text) {
        List<Cidr> list = new ArrayList<>();
        if (text != null) {
            for (String entry : text.split("[,\\s]+")) {
                if (!entry.isEmpty()) {
                    list.add(Cidr.parse(entry));
                }
            }
        }
        return new PeerFilter(list);
    }

    /** {@return whether the list restricts anything} */
    public boolean restricts() {
        return !allowed.isEmpty();
    }

    /**
     * {@return whether {@code peer} may connect}
     *
     * @param peer the request's source address
     */
    public boolean allows(InetAddress peer) {
        if (allowed.isEmpty()) {
            return true;
        }
        for (Cidr c : allowed) {
            if (c.contains(peer)) {
                return true;
            }
        }
        return false;
    }
}
