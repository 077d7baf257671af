package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.SrqMessage;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.support.RaLogger;
import io.rdma.srq.ra.support.RateLimitedLog;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The peers of one pooled connection: one {@link PeerLink} per listener address and pooled SRQ,
 * found again by qp_num when the pooled SRQs' CQs give their completions ({@link PooledSrq.Sink}),
 * and the figures of its peers alive and retired. Holds no native object and issues no verb: the
 * pooled connection establishes the links, drains and closes them ({@link SrqManagedConnection}),
 * and tells this pool when one is gone ({@link #forget}).
 */
final class PeerPool implements PooledSrq.Sink {
    /** A pooled peer's identity: where it connects and which pooled SRQ its receives come from. */
    private record PeerKey(InetSocketAddress remote, String srqName) {
    }

    /**
     * What {@link #place} decided.
     *
     * @param use    the link the caller gets
     * @param retire a link no longer in the pool that the caller must retire, or null
     */
    record Placed(PeerLink use, PeerLink retire) {
    }

    /** SRQRA0105 (by peer): a repeating fault could log it once per pass. */
    private final RateLimitedLog<String> failureLines = new RateLimitedLog<>();
    private final Map<PeerKey, PeerLink> peers = new ConcurrentHashMap<>();
    private final Map<Integer, PeerLink> byQp = new ConcurrentHashMap<>();
    private final int receiveBufferSize;
    private final AtomicLong strayMessages = new AtomicLong();
    /** Unsolicited messages dropped, and late replies, of retired peers: the totals never shrink. */
    private final AtomicLong retiredDropped = new AtomicLong();
    private final AtomicLong retiredLate = new AtomicLong();
    private final AtomicLong peerErrors = new AtomicLong();

    /** @param receiveBufferSize the definition's receiveBufferSize, named when a receive fails for length */
    PeerPool(int receiveBufferSize) {
        this.receiveBufferSize = receiveBufferSize;
    }

    /**
     * @param remote  the listener's address
     * @param srqName the pooled SRQ
     * @return the pooled link for them if it is usable, else null
     */
    PeerLink usable(InetSocketAddress remote, String srqName) {
        PeerLink link = peers.get(new PeerKey(remote, srqName));
        return link != null && link.isUsable() ? link : null;
    }

    /**
     * Takes a failed or disconnected link out of the pool.
     *
     * @param remote  the listener's address
     * @param srqName the pooled SRQ
     * @return the link taken out, to retire, or null (none, or a usable one)
     */
    PeerLink removeUnusable(InetSocketAddress remote, String srqName) {
        PeerKey key = new PeerKey(remote, srqName);
        PeerLink link = peers.get(key);
        return link != null && !link.isUsable() && peers.remove(key, link) ? link : null;
    }

    /**
     * Puts a newly established link in the pool; two threads that established one for the same
     * key at once keep the usable one.
     *
     * @param fresh the new link
     * @return the link to use and the one to retire
     */
    Placed place(PeerLink fresh) {
        PeerKey key = new PeerKey(fresh.remote(), fresh.srqName());
        byQp.put(fresh.qpNum(), fresh);
        PeerLink raced = peers.putIfAbsent(key, fresh);
        if (raced == null) {
            return new Placed(fresh, null);
        }
        if (raced.isUsable()) {
            return new Placed(raced, fresh);
        }
        peers.put(key, fresh);
        return new Placed(fresh, raced);
    }

    /** @return the links in the pool now */
    List<PeerLink> all() {
        return List.copyOf(peers.values());
    }

    /** Empties the pool (destroy: every link is being retired). */
    void clear() {
        peers.clear();
    }

    /** @return the links whose rdma_cm connection ended, with the event that ended it */
    Map<PeerLink, CmEventType> ended() {
        Map<PeerLink, CmEventType> ended = new HashMap<>();
        for (PeerLink l : peers.values()) {
            l.endingEvent().ifPresent(type -> ended.put(l, type));
        }
        return ended;
    }

    /**
     * A retired link is gone: its figures join the retired totals, its qp_num no longer routes.
     *
     * @param link the link, drained
     */
    void forget(PeerLink link) {
        retiredDropped.addAndGet(link.droppedUnsolicited());
        retiredLate.addAndGet(link.lateReplies());
        byQp.remove(link.qpNum(), link);
    }

    @Override
    public void message(int qpNum, SrqMessage message) {
        PeerLink l = byQp.get(qpNum);
        if (l == null) {
            strayMessages.incrementAndGet();
        } else {
            l.onMessage(message);
        }
    }

    @Override
    public void error(int qpNum, String status) {
        peerErrors.incrementAndGet();
        PeerLink l = byQp.get(qpNum);
        if (l != null) {
            failureLines.event("peer", (notLogged, seconds) -> RaLogger.LOG.peerReceiveError(l.remote(), l.srqName(),
                    status, notLogged, seconds)); // counted in peerErrors
            l.fail(new VerbsException("ibv_poll_cq", Errno.EIO, "a receive from " + l.remote() + " completed with "
                    + status + " (a message longer than receiveBufferSize " + receiveBufferSize
                    + " gives LOC_LEN_ERR); the QP is in the error state"));
        }
    }

    /** @return the peers the pool holds */
    int count() {
        return peers.size();
    }

    /** @return replies discarded because no call waited for them, over all peers, alive or retired */
    long lateReplies() {
        return retiredLate.get() + peers.values().stream().mapToLong(PeerLink::lateReplies).sum();
    }

    /** @return unsolicited messages discarded, over all peers, alive or retired */
    long droppedUnsolicited() {
        return retiredDropped.get() + peers.values().stream().mapToLong(PeerLink::droppedUnsolicited).sum();
    }

    /** @return unsolicited messages waiting for a {@code receive}, over all peers alive */
    long queuedUnsolicited() {
        return peers.values().stream().mapToLong(PeerLink::queuedUnsolicited).sum();
    }

    /** @return messages on QPs no longer in the pool (a retired peer's), discarded */
    long strayMessages() {
        return strayMessages.get();
    }

    /** @return receive completions in error (each failed its peer) */
    long peerErrors() {
        return peerErrors.get();
    }
}
