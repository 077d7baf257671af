package io.rdma.srq.ra.inbound.connections;


import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.support.RcConnection;
import io.rdma.srq.ra.support.Teardown;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CmRequest;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.ConnectionParameters;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.VerbsObject;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;

/**
 * The connections of one activation, accepted or opened by it, by the qp_num of their QP: each an
 * {@link RcConnection} whose receives come from the activation's SRQ (completing on its CQ), with a
 * send ring of {@value RcConnection#SEND_DEPTH} × replyBufferSize bytes registered on its first
 * reply, so connections that never reply register no send memory. A reply finds its connection here
 * by the message's qp_num and connection id. Each connection gets an id never reused within the JVM
 * (a QP number is reused by the device once its QP is destroyed), which names it to applications
 * ({@code ReceiveCompletion.connectionId}, dead letters). A connection is registered, with its id,
 * when its QP is created, before rdma_accept / rdma_connect make it ready, so its first message finds
 * its id and no lock is held across a blocking connect. The id of a closed connection is kept for its
 * completions polled after the close until a later connection takes the QP number, or until it is
 * no longer among the {@value #CLOSED_IDS_KEPT} closed connections made last (then it is pruned: the
 * map holds the ids of the open connections and of at most that many closed ones). Thread-safe.
 */
public final class Links {
    static final String REPLY_BUFFER_SIZE = "the activation's replyBufferSize";
    /** Ids of closed connections kept at most, for their completions polled after the close. */
    static final int CLOSED_IDS_KEPT = 4096;

    private final String name;
    private final ProtectionDomain pd;
    private final RcConnection.Receives receives;
    private final RcConnection.Sends replies;
    private final ConnectionParameters fabric;
    /** Connection ids, never reused within the JVM (QP numbers are). */
    private static final AtomicLong NEXT_ID = new AtomicLong();
    private final Map<Integer, RcConnection> byQpNum = new ConcurrentHashMap<>();
    private final Map<Integer, Long> idByQpNum = new ConcurrentHashMap<>();
    /** Every registration (qp_num, id) in order, to prune the ids of closed connections; guarded by itself. */
    private final Deque<long[]> registered = new ArrayDeque<>();
    private final int closedIdsKept;
    private volatile boolean stopping;
    /** Connections leaving: in ERROR, destroyed once their last completions were polled. */
    private final Retiring retiring;

    /**
     * @param name            the activation's SRQ name, for messages
     * @param pd              the activation's PD
     * @param cq              the activation's CQ
     * @param srq             the activation's SRQ
     * @param replyBufferSize bytes per reply, ≥ 1
     * @param replyTimeout    the longest a reply waits for room in its connection's send ring (a peer
     *                        that never reads fills it): then ETIMEDOUT, the delivering thread is free
     * @param fabric          the fabric settings of every connection (traffic class, ACK timeout, retry counts)
     * @param sweep           what the poller says of the CQ: a leaving connection's QP is destroyed only
     *                        once its completions were taken ({@link Retiring})
     */
    public Links(String name, ProtectionDomain pd, CompletionQueue cq, SharedReceiveQueue srq, int replyBufferSize,
                 Duration replyTimeout, ConnectionParameters fabric, CqSweep sweep) {
        this(name, pd, cq, srq, replyBufferSize, replyTimeout, fabric, sweep, CLOSED_IDS_KEPT);
    }

    /** As the public constructor, keeping the ids of {@code closedIdsKept} closed connections (tests). */
    public Links(String name, ProtectionDomain pd, CompletionQueue cq, SharedReceiveQueue srq, int replyBufferSize,
          Duration replyTimeout, ConnectionParameters fabric, CqSweep sweep, int closedIdsKept) {
        this.retiring = new Retiring(name, sweep);
        this.fabric = fabric;
        this.name = name;
        this.pd = pd;
        this.receives = RcConnection.Receives.fromSrq(cq, srq);
        this.replies = new RcConnection.Sends(replyBufferSize, REPLY_BUFFER_SIZE, false, replyTimeout);
        this.closedIdsKept = closedIdsKept;
    }

    /**
     * Accepts a connection request onto a new connection on the SRQ.
     *
     * @param request a CONNECT_REQUEST of the activation's listener; the caller rejects it on failure
     * @return the connection, accepted and registered
     * @throws VerbsException as {@link RcConnection#accept}; nothing is left open
     */
    public RcConnection accept(CmRequest request) throws VerbsException {
        RcConnection link = register(RcConnection.create(pd, receives, replies));
        int qpNum = link.qpNum(); // unreadable once a failure closed it
        try {
            link.accept(request, fabric);
        } catch (RuntimeException e) {
            byQpNum.remove(qpNum, link);
            throw e;
        }
        return link;
    }

    /**
     * Opens a new connection on the SRQ to a remote listener. Blocks up to 3 × {@code timeout} and
     * holds no lock meanwhile: accepts, replies and drops of other connections go on.
     *
     * @param remote  the listener
     * @param timeout bound for each rdma_cm step
     * @param privateData the connect's private data (the admission token, or empty)
     * @return the connection, established and registered
     * @throws VerbsException as {@link RcConnection#connect}; nothing is left open
     */
    RcConnection connect(InetSocketAddress remote, Duration timeout, byte[] privateData) throws VerbsException {
        RcConnection link = register(RcConnection.create(pd, receives, replies));
        int qpNum = link.qpNum(); // unreadable once a failure closed it
        try {
            link.connect(remote, timeout, privateData, fabric);
        } catch (RuntimeException e) {
            byQpNum.remove(qpNum, link);
            throw e;
        }
        return link;
    }

    /**
     * Registers a connection whose QP exists but is not yet connected, so that its first message
     * (which can come as soon as rdma_accept / rdma_connect made the QP ready) finds its id, and
     * prunes the ids of closed connections, those made first, beyond {@code closedIdsKept}.
     */
    private RcConnection register(RcConnection link) {
        long id = NEXT_ID.incrementAndGet();
        idByQpNum.put(link.qpNum(), id);
        byQpNum.put(link.qpNum(), link);
        synchronized (registered) {
            registered.addLast(new long[] {link.qpNum(), id});
            while (registered.size() > byQpNum.size() + closedIdsKept) {
                long[] r = registered.pollFirst();
                int qpNum = (int) r[0];
                Long now = idByQpNum.get(qpNum);
                if (now != null && now == r[1] && byQpNum.containsKey(qpNum)) {
                    registered.addLast(r); // still open
                } else {
                    idByQpNum.remove(qpNum, r[1]); // closed, or its number taken by a later connection
                }
            }
        }
        return link;
    }

    /**
     * @param qpNum the local QP of a message (its work completion's qp_num)
     * @return the id of the connection on that QP now, never reused; 0 when there is none
     */
    public long connectionId(int qpNum) {
        Long id = idByQpNum.get(qpNum);
        return id == null ? 0 : id;
    }

    /**
     * @param qpNum        a qp_num
     * @param connectionId a connection id
     * @return whether that connection is still connected on that QP (not leaving, not replaced)
     */
    public boolean isConnected(int qpNum, long connectionId) {
        return byQpNum.containsKey(qpNum) && connectionId(qpNum) == connectionId;
    }

    /**
     * @param qpNum        a qp_num
     * @param connectionId a connection id
     * @return the peer of that connection as a failure names it: its address while connected, else
     *         "connection N (qp_num Q), gone"
     */
    public String remoteOf(int qpNum, long connectionId) {
        RcConnection link = byQpNum.get(qpNum);
        return link != null && connectionId(qpNum) == connectionId ? link.peer()
                : "connection " + connectionId + " (qp_num " + qpNum + "), gone";
    }

    /**
     * @param qpNum a qp_num
     * @param link  a connection
     * @return whether {@code link} is the connection on that QP now (not closed, not replaced)
     */
    boolean holds(int qpNum, RcConnection link) {
        return byQpNum.get(qpNum) == link;
    }

    /**
     * Ends the connection of {@code qpNum} (its peer disconnected, it was evicted, it never
     * established): it is forgotten for replies (ENOTCONN from now on), its QP moves to ERROR and
     * rdma_disconnect(3) tells the peer; the QP is destroyed by a later {@link #reapRetired}, once
     * every completion it put in the CQ has been polled ({@link Retiring}: on mlx5 a destroy would
     * remove them uncounted, driver note 18). Its id stays with the QP number until a later connection
     * gets that number, so its completions polled meanwhile still name their connection — and stay in
     * its order under ordering=connection. Quietly; idempotent.
     *
     * @param qpNum the connection's qp_num; unknown ones are ignored
     */
    public void drop(int qpNum) {
        RcConnection link = byQpNum.remove(qpNum);
        if (link != null) {
            retiring.add(link);
        }
    }

    /**
     * {@link #drop(int)} of {@code link} if it is still the connection on {@code qpNum}: one that left
     * already, or a later connection on the same QP number, is left alone.
     *
     * @param qpNum the connection's qp_num, read while it was open
     * @param link  the connection
     */
    public void drop(int qpNum, RcConnection link) {
        if (byQpNum.remove(qpNum, link)) {
            retiring.add(link);
        }
    }

    /**
     * {@link #drop(int)} of the connection whose rdma_cm connection is {@code connection} (its
     * DISCONNECTED or TIMEWAIT_EXIT): matched by identity, so an event of a connection that already left
     * never ends a later connection on the same QP number.
     *
     * @param connection the event's rdma_cm connection; one that is not (any more) a live connection's is ignored
     */
    public void drop(CmConnection connection) {
        for (RcConnection link : byQpNum.values()) {
            if (link.connection() == connection) {
                if (byQpNum.remove(link.qpNum(), link)) {
                    retiring.add(link);
                }
                return;
            }
        }
    }

    /**
     * Disconnects a connection that holds too much of the SRQ ({@link io.rdma.srq.ra.inbound.delivery.ConnectionLanes}): as
     * {@link #drop}, its QP to ERROR, so no further message is acknowledged to it (what it sent before
     * is still delivered), destroyed once its completions were taken. A later connection on the same
     * QP number is left alone.
     *
     * @param qpNum        the connection's qp_num
     * @param connectionId its id
     * @return whether it was still connected (false: gone already, nothing done)
     */
    public boolean evict(int qpNum, long connectionId) {
        RcConnection link = byQpNum.get(qpNum);
        if (link == null || connectionId(qpNum) != connectionId || !byQpNum.remove(qpNum, link)) {
            return false;
        }
        retiring.add(link);
        return true;
    }

    /**
     * IBV_EVENT_QP_LAST_WQE_REACHED (ibv_get_async_event(3)): the QP will add no more completions.
     *
     * @param qp the event's element
     */
    void lastWqeReached(VerbsObject qp) {
        boolean live = byQpNum.values().stream().anyMatch(l -> l.qp() == qp);
        retiring.lastWqeReached(qp, live);
    }

    /**
     * Destroys the leaving connections whose completions have all been polled (the control loop,
     * every turn).
     *
     * @param released told the qp_num of each one destroyed, after the destroy (its admission slot)
     * @return connections destroyed
     */
    int reapRetired(IntConsumer released) {
        return retiring.reap(released);
    }

    /**
     * Sends a reply on the connection a message arrived on.
     *
     * @param qpNum        the local QP of the message (its work completion's qp_num)
     * @param connectionId the message's connection id: a later connection on a reused QP number is not it
     * @param message      the bytes, at most replyBufferSize
     * @param immData      immediate data, or null
     * @throws VerbsException ENOTCONN when that connection is gone or deactivation is disconnecting it;
     *                        else as {@link RcConnection#send}
     */
    public void reply(int qpNum, long connectionId, ByteBuffer message, Integer immData) throws VerbsException {
        RcConnection link = byQpNum.get(qpNum);
        if (link == null || connectionId(qpNum) != connectionId) {
            throw new VerbsException("ibv_post_send", Errno.ENOTCONN, "activation " + name + ": QP " + qpNum
                    + " is no longer connected");
        }
        try {
            link.send(message, immData);
        } catch (VerbsException e) {
            if (stopping && !e.is(Errno.ENOTCONN)) {
                // its QP was moved to ERROR by deactivation: the send was flushed, the connection is going
                throw new VerbsException("ibv_post_send", Errno.ENOTCONN, "activation " + name + ": QP " + qpNum
                        + " is being disconnected by deactivation (" + e.getMessage() + ")");
            }
            throw e;
        }
    }

    /**
     * Deactivation's first step: moves every connection's QP to ERROR (ibv_modify_qp(3)
     * IBV_QPS_ERR), so no further message is acknowledged to a sender, while the completions already
     * in the CQ stay to be drained (driver note 18). The connections stay open until
     * {@link #closeAll}. Quietly: a QP that cannot be moved is closed at once.
     *
     * @return the connections whose QP could not be moved to ERROR (closed instead)
     */
    public int stopArrivals() {
        stopping = true;
        int failed = 0;
        for (RcConnection link : List.copyOf(byQpNum.values())) {
            try {
                link.qp().moveToError();
            } catch (RuntimeException e) {
                failed++;
                drop(link.qpNum());
            }
        }
        return failed;
    }

    /** Closes every connection, leaving ones too, quietly (deactivation, once the CQ was drained). */
    public void closeAll() {
        for (RcConnection link : List.copyOf(byQpNum.values())) {
            Teardown.quietly(link);
        }
        byQpNum.clear();
        retiring.closeAll();
        idByQpNum.clear();
    }

    /** @return connections now, those being accepted or connected included (leaving ones not) */
    public int size() {
        return byQpNum.size();
    }

    /** @return connections leaving now: in ERROR, waiting for their last completions to be polled */
    public int leaving() {
        return retiring.size();
    }

    /** @return connections destroyed after their last completions were polled */
    public long closed() {
        return retiring.closed();
    }

    /** @return of {@link #closed()}, those whose end IBV_EVENT_QP_LAST_WQE_REACHED announced */
    public long closedOnLastWqe() {
        return retiring.closedOnLastWqe();
    }
}
