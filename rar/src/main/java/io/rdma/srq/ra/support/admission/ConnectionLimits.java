package io.rdma.srq.ra.support.admission;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * maxConnections and maxConnectionsPerPeer of one activation: the accepted connections it holds, in
 * all and by peer address (an IPv4-mapped address counts as its IPv4 address). A slot is reserved at
 * admission ({@link #reserve}), bound to the connection's qp_num once accepted ({@link #bind}) or
 * given back when the accept fails ({@link #cancel}), and freed when the connection closes
 * ({@link #closed}, idempotent). Thread-safe.
 */
public final class ConnectionLimits {
    private final int max;
    private final int perPeer;
    private final Map<InetAddress, Integer> byPeer = new HashMap<>();
    private final Map<Integer, InetAddress> byQpNum = new HashMap<>();
    private int total;

    /**
     * @param max     connections at most, ≥ 1
     * @param perPeer connections per peer address at most, 1..max
     */
    public ConnectionLimits(int max, int perPeer) {
        this.max = max;
        this.perPeer = perPeer;
    }

    /**
     * Reserves a slot for {@code peer}.
     *
     * @param peer the request's source address
     * @return null when reserved, else the limit that stops it
     */
    public synchronized RejectReason reserve(InetAddress peer) {
        InetAddress key = key(peer);
        if (total >= max) {
            return RejectReason.MAX_CONNECTIONS;
        }
        if (byPeer.getOrDefault(key, 0) >= perPeer) {
            return RejectReason.MAX_CONNECTIONS_PER_PEER;
        }
        total++;
        byPeer.merge(key, 1, Integer::sum);
        return null;
    }

    /**
     * The reserved slot of {@code peer} now holds the accepted connection {@code qpNum}. The device
     * gives a QP number out again only once its QP is destroyed, so a bind over a connection still
     * held means that connection's close was missed: its slot is freed here, once (a later
     * {@link #closed} of the number frees the new connection's slot only).
     *
     * @param peer  the address {@link #reserve} was given
     * @param qpNum the accepted connection's qp_num
     * @return the peer of the connection whose close was missed (now freed), or null as it should be
     */
    public synchronized InetAddress bind(InetAddress peer, int qpNum) {
        InetAddress stale = byQpNum.put(qpNum, key(peer));
        if (stale != null) {
            release(stale);
        }
        return stale;
    }

    /**
     * Gives back a reserved slot whose accept failed. A peer without a slot is ignored.
     *
     * @param peer the address {@link #reserve} was given
     */
    public synchronized void cancel(InetAddress peer) {
        release(key(peer));
    }

    /**
     * The connection {@code qpNum} closed: frees its slot. Unknown (or already freed) ones are ignored.
     *
     * @param qpNum the connection's qp_num
     */
    public synchronized void closed(int qpNum) {
        InetAddress peer = byQpNum.remove(qpNum);
        if (peer != null) {
            release(peer);
        }
    }

    /** {@return connections counted now} */
    public synchronized int total() {
        return total;
    }

    /** Frees one slot of {@code key}; when it holds none (a caller's bookkeeping bug) nothing is freed. */
    private void release(InetAddress key) {
        Integer n = byPeer.get(key);
        if (n == null) {
            return;
        }
        if (n > 1) {
            byPeer.put(key, n - 1);
        } else {
            byPeer.remove(key);
        }
        total--;
    }

    private static InetAddress key(InetAddress peer) {
        try {
            return InetAddress.getByAddress(Cidr.normal(peer));
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
