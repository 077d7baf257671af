package io.rdma.srq.ra.support;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CmRequest;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.ConnectionParameters;
import io.rdma.srq.verbs.MemlockLimit;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.SharedReceiveQueue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Objects;

/**
 * One reliable connection of the adapter, accepted or opened: a send CQ of its own, an RC QP (its
 * receives from an SRQ, or none), a {@link SendRing} of {@value #SEND_DEPTH} slots and the rdma_cm
 * connection. The activation's accepted and outgoing connections and the outbound
 * {@link io.rdma.srq.api.SrqPeer} are all one of these.
 *
 * <p>Built one way ({@link #create}; {@link #accept} and {@link #connect} create, then connect, and
 * roll back on failure) and torn down one way ({@link #close}: the rdma_cm id, the ring, the QP, the
 * CQ, every close attempted). Thread-safe: sends of concurrent callers go one at a time (the
 * ring's lock); a close makes a send waiting for room give up with ENOTCONN.
 */
public final class RcConnection implements AutoCloseable {
    /** Sends in flight at most per connection: the QP's max_send_wr and the ring's slots. */
    public static final int SEND_DEPTH = 64;
    /** The largest send slot: {@value #SEND_DEPTH} of them make a ring of at most 1 GiB per connection. */
    public static final int MAX_SLOT = (1 << 30) / SEND_DEPTH;

    /**
     * Where the QP's receives come from.
     *
     * @param cq  the CQ of the receive completions, or null for none
     * @param srq the SRQ the receives come from, or null for none
     */
    public record Receives(CompletionQueue cq, SharedReceiveQueue srq) {
        /**
         * @param cq  the CQ of the SRQ's receive completions
         * @param srq the SRQ
         * @return receives from {@code srq}, completing on {@code cq}
         */
        public static Receives fromSrq(CompletionQueue cq, SharedReceiveQueue srq) {
            return new Receives(Objects.requireNonNull(cq, "cq"), Objects.requireNonNull(srq, "srq"));
        }

        /**
         * @return no receives: a receive queue of one WR (none posted) whose completions, if any,
         *         share the send CQ, which is then 2 × {@value #SEND_DEPTH} entries
         */
        public static Receives none() {
            return new Receives(null, null);
        }
    }

    /**
     * How the connection sends.
     *
     * @param slotSize     bytes per message, ≥ 1
     * @param slotProperty the configuration property that sets the slot size, for EMSGSIZE's message
     * @param ringAtOnce   register the ring ({@value #SEND_DEPTH} × slotSize bytes) when the connection
     *                     is built; otherwise on the first send, so a connection that never sends
     *                     registers no send memory
     * @param fullWait     the longest a send waits for room in a full ring, then ETIMEDOUT
     */
    public record Sends(int slotSize, String slotProperty, boolean ringAtOnce, Duration fullWait) {
        /**
         * Sends that wait up to {@link SendRing#FULL_QUEUE_WAIT} for room.
         *
         * @param slotSize     bytes per message
         * @param slotProperty the property that sets it
         * @param ringAtOnce   register the ring when the connection is built
         */
        public Sends(int slotSize, String slotProperty, boolean ringAtOnce) {
            this(slotSize, slotProperty, ringAtOnce, SendRing.FULL_QUEUE_WAIT);
        }
    }

    /** Connects a QP in RESET: rdma_accept or rdma_connect. */
    @FunctionalInterface
    private interface Establish {
        CmConnection on(QueuePair qp) throws VerbsException;
    }

    private final ProtectionDomain pd;
    private final CompletionQueue sendCq;
    private final QueuePair qp;
    private final Sends sends;
    private CmConnection connection;
    private SendRing ring;
    private boolean closed;

    private RcConnection(ProtectionDomain pd, CompletionQueue sendCq, QueuePair qp, Sends sends) {
        this.pd = pd;
        this.sendCq = sendCq;
        this.qp = qp;
        this.sends = sends;
    }

    /**
     * Creates the send CQ and the QP (in RESET, not connected: connect it directly with
     * {@link QueuePair#connect}, or use {@link #accept} / {@link #connect}) and, with
     * {@link Sends#ringAtOnce()}, the ring.
     *
     * @param pd       the protection domain (and through it the device)
     * @param receives where the receives come from
     * @param sends    how it sends
     * @return the connection
     * @throws VerbsException the errno of ibv_create_cq, ibv_create_qp or ibv_reg_mr; nothing is left open
     */
    public static RcConnection create(ProtectionDomain pd, Receives receives, Sends sends) throws VerbsException {
        boolean onSrq = receives.srq() != null;
        CompletionQueue sendCq = pd.context().createCq(onSrq ? SEND_DEPTH : 2 * SEND_DEPTH, null);
        RcConnection c = null;
        try {
            QpInitAttributes.Builder attributes = QpInitAttributes.builder(QpInitAttributes.QpType.RC).sendCq(sendCq)
                    .maxSendWr(SEND_DEPTH);
            if (onSrq) {
                attributes.recvCq(receives.cq()).srq(receives.srq());
            } else {
                attributes.recvCq(sendCq).maxRecvWr(1).maxRecvSge(1);
            }
            c = new RcConnection(pd, sendCq, pd.createQp(attributes.build()), sends);
            if (sends.ringAtOnce()) {
                c.ring();
            }
            return c;
        } catch (RuntimeException e) {
            Teardown.rollback(e, c == null ? sendCq : c);
            throw e;
        }
    }

    /**
     * Creates a connection and accepts {@code request} onto its QP (rdma_accept(3)).
     *
     * @param pd       the protection domain, on the listener's device
     * @param receives where the receives come from
     * @param sends    how it sends
     * @param request  a CONNECT_REQUEST of a listener on the same device; the caller rejects it on failure
     * @param fabric   the QP's traffic class, ACK timeout, retry counts
     * @return the connection, accepted (ESTABLISHED follows on the listener)
     * @throws VerbsException as {@link #create}, or the errno of ibv_modify_qp / rdma_accept; nothing is left open
     */
    public static RcConnection accept(ProtectionDomain pd, Receives receives, Sends sends, CmRequest request,
                                      ConnectionParameters fabric) throws VerbsException {
        return establish(pd, receives, sends, qp -> request.accept(qp, fabric));
    }

    /**
     * Creates a connection and connects it to a listener (rdma_resolve_addr, rdma_resolve_route,
     * rdma_connect).
     *
     * @param pd       the protection domain
     * @param receives where the receives come from
     * @param sends    how it sends
     * @param remote   the listener's address
     * @param timeout  bound for each step
     * @param privateData what the connect request carries (the admission token, or empty), ≤ 56 bytes
     * @param fabric   the QP's traffic class, ACK timeout, retry counts (also carried in the request)
     * @return the connection, established
     * @throws VerbsException as {@link #create}, or ECONNREFUSED ({@link io.rdma.srq.verbs.ConnectRejectedException}
     *                        on a reject), EHOSTUNREACH, ETIMEDOUT, …; nothing is left open
     */
    public static RcConnection connect(ProtectionDomain pd, Receives receives, Sends sends, InetSocketAddress remote,
                                       Duration timeout, byte[] privateData, ConnectionParameters fabric)
            throws VerbsException {
        return establish(pd, receives, sends, qp -> pd.context().connect(qp, remote, timeout, privateData, fabric));
    }

    private static RcConnection establish(ProtectionDomain pd, Receives receives, Sends sends, Establish how)
            throws VerbsException {
        RcConnection c = create(pd, receives, sends);
        c.establish(how);
        return c;
    }

    /**
     * Accepts {@code request} onto this connection's QP (rdma_accept(3)): for a connection made by
     * {@link #create}, whose qp_num a caller registers before the QP can receive.
     *
     * @param request a CONNECT_REQUEST of a listener on the same device; the caller rejects it on failure
     * @param fabric  the QP's traffic class, ACK timeout, retry counts
     * @throws VerbsException the errno of ibv_modify_qp / rdma_accept; the connection is closed then
     */
    public void accept(CmRequest request, ConnectionParameters fabric) throws VerbsException {
        establish(qp -> request.accept(qp, fabric));
    }

    /**
     * Connects this connection's QP to a listener (rdma_resolve_addr, rdma_resolve_route,
     * rdma_connect): for a connection made by {@link #create}, whose qp_num a caller registers before
     * the QP can receive. Blocks up to about 3 × {@code timeout}.
     *
     * @param remote      the listener's address
     * @param timeout     bound for each step
     * @param privateData what the connect request carries (the admission token, or empty), ≤ 56 bytes
     * @param fabric      the QP's traffic class, ACK timeout, retry counts (also carried in the request)
     * @throws VerbsException as {@link #connect(ProtectionDomain, Receives, Sends, InetSocketAddress, Duration,
     *                        byte[], ConnectionParameters)}; the connection is closed then
     */
    public void connect(InetSocketAddress remote, Duration timeout, byte[] privateData, ConnectionParameters fabric)
            throws VerbsException {
        establish(qp -> pd.context().connect(qp, remote, timeout, privateData, fabric));
    }

    private void establish(Establish how) throws VerbsException {
        try {
            CmConnection established = how.on(qp);
            synchronized (this) {
                connection = established;
            }
        } catch (RuntimeException e) {
            Teardown.rollback(e, this);
            throw e;
        }
    }

    /** @return the QP */
    public QueuePair qp() {
        return qp;
    }

    /** @return the QP's number: the qp_num of its receive completions */
    public int qpNum() {
        return qp.qpNum();
    }

    /** @return the rdma_cm connection, or null when built by {@link #create} alone */
    public synchronized CmConnection connection() {
        return connection;
    }

    /** @return the peer's address, or "QP n" before it is connected through rdma_cm */
    public synchronized String peer() {
        return connection == null ? "QP " + qp.qpNum() : connection.remoteAddress().toString();
    }

    /**
     * Sends the remaining bytes of {@code message} (SEND, or SEND_WITH_IMM with {@code immData}).
     *
     * @param message the bytes, at most the slot size
     * @param immData immediate data in host order, or null
     * @throws VerbsException as {@link SendRing#post}; ENOTCONN once the connection is closed
     */
    public void send(ByteBuffer message, Integer immData) throws VerbsException {
        ring().post(message, immData, sends.slotProperty());
    }

    /**
     * {@link #send(ByteBuffer, Integer)} waiting at most {@code wait} for room in a full send ring.
     *
     * @param message the bytes, at most the slot size
     * @param immData immediate data in host order, or null
     * @param wait    the longest wait for room
     * @throws VerbsException as {@link SendRing#post(ByteBuffer, Integer, String, Duration)}; ENOTCONN once
     *                        the connection is closed
     */
    public void send(ByteBuffer message, Integer immData, Duration wait) throws VerbsException {
        ring().post(message, immData, sends.slotProperty(), wait);
    }

    /** @return whether one of its sends completed with an error (its QP is in the error state) */
    public boolean sendFailed() {
        SendRing r;
        synchronized (this) {
            r = ring;
        }
        return r != null && r.hasFailed();
    }

    /**
     * Waits until every message sent so far has completed.
     *
     * @param timeout the longest wait
     * @throws VerbsException as {@link SendRing#flush}; ENOTCONN once the connection is closed
     */
    public void flush(Duration timeout) throws VerbsException {
        ring().flush(timeout);
    }

    /** @return messages sent so far (0 before the ring exists) */
    public long sent() {
        SendRing r;
        synchronized (this) {
            r = ring;
        }
        return r == null ? 0 : r.sent();
    }

    private synchronized SendRing ring() throws VerbsException {
        if (closed) {
            throw new VerbsException("ibv_post_send", Errno.ENOTCONN, "the connection to " + peer() + " is closed");
        }
        if (ring == null) {
            // registered now, so counted against RLIMIT_MEMLOCK now: a clear ENOMEM, not ibv_reg_mr's bare one
            new PinningBudget(MemlockLimit.ofThisProcess()).checkRegistration("the send ring of the connection to "
                    + peer() + " (" + SEND_DEPTH + " × " + sends.slotSize() + " bytes)", pd.context().providerName(),
                    (long) SEND_DEPTH * sends.slotSize(), sends.slotProperty());
            ring = new SendRing(pd, qp, sendCq, sends.slotSize(), SEND_DEPTH, this::peer, sends.fullWait());
        }
        return ring;
    }

    /**
     * Disconnects and destroys the rdma_cm id, deregisters the ring (after a send in progress: the
     * ring's lock), destroys the QP and the send CQ — every close attempted. Idempotent.
     *
     * @throws VerbsException the first failing close's errno, the others suppressed into it
     */
    @Override
    public void close() throws VerbsException {
        SendRing r;
        CmConnection c;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            r = ring;
            c = connection;
        }
        new Teardown().close(c).close(r).close(qp).close(sendCq).throwIfFailed();
    }
}
