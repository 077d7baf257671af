package io.rdma.srq.ra.inbound;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.support.SendRing;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.SharedReceiveQueue;

import java.nio.ByteBuffer;

/**
 * One connection of an activation, accepted or opened by it: an RC QP that takes its receives from
 * the activation's SRQ (receive completions go to the activation's CQ), a send CQ of its own, and —
 * once the first reply is sent — a {@link SendRing} of {@value #SEND_DEPTH} slots of replyBufferSize
 * bytes. Connections that never reply register no send memory.
 */
final class Link {
    static final int SEND_DEPTH = 64;
    static final String REPLY_BUFFER_SIZE = "the activation's replyBufferSize";

    private final ProtectionDomain pd;
    private final CompletionQueue sendCq;
    private final QueuePair qp;
    private final int replyBufferSize;
    private CmConnection connection;
    private SendRing ring;
    private boolean closed;

    private Link(ProtectionDomain pd, CompletionQueue sendCq, QueuePair qp, int replyBufferSize) {
        this.pd = pd;
        this.sendCq = sendCq;
        this.qp = qp;
        this.replyBufferSize = replyBufferSize;
    }

    /**
     * Creates the QP (in RESET) and its send CQ; connect or accept it, then {@link #attach} the id.
     *
     * @param pd              the activation's PD
     * @param recvCq          the activation's CQ
     * @param srq             the activation's SRQ
     * @param replyBufferSize bytes per reply
     * @return the link, not connected yet
     * @throws VerbsException the errno of ibv_create_cq / ibv_create_qp
     */
    static Link create(ProtectionDomain pd, CompletionQueue recvCq, SharedReceiveQueue srq, int replyBufferSize)
            throws VerbsException {
        CompletionQueue sendCq = pd.context().createCq(SEND_DEPTH, null);
        try {
            QueuePair qp = pd.createQp(QpInitAttributes.builder(QpInitAttributes.QpType.RC).sendCq(sendCq).recvCq(recvCq).srq(srq)
                    .maxSendWr(SEND_DEPTH).build());
            return new Link(pd, sendCq, qp, replyBufferSize);
        } catch (VerbsException | RuntimeException e) {
            try {
                sendCq.close();
            } catch (VerbsException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    QueuePair qp() {
        return qp;
    }

    int qpNum() {
        return qp.qpNum();
    }

    synchronized void attach(CmConnection c) {
        this.connection = c;
    }

    synchronized CmConnection connection() {
        return connection;
    }

    private synchronized String peer() {
        return connection == null ? "QP " + qp.qpNum() : connection.remoteAddress().toString();
    }

    /**
     * Sends {@code message} on this connection (SEND, or SEND_WITH_IMM with {@code immData}).
     *
     * @throws VerbsException as {@link SendRing#post}; ENOTCONN once the connection is gone
     */
    void reply(ByteBuffer message, Integer immData) throws VerbsException {
        SendRing r;
        synchronized (this) {
            if (closed) {
                throw new VerbsException("ibv_post_send", Errno.ENOTCONN, "the connection to " + peer() + " is closed");
            }
            if (ring == null) {
                ring = new SendRing(pd, qp, sendCq, replyBufferSize, SEND_DEPTH, this::peer);
            }
            r = ring;
        }
        r.post(message, immData, REPLY_BUFFER_SIZE);
    }

    /** Disconnects and destroys the id, the send ring, the QP and the send CQ. Idempotent, quiet. */
    void close() {
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
        SrqActivation.closeQuietly(c);
        SrqActivation.closeQuietly(r); // waits for a reply being posted (the ring's lock), then refuses the next
        SrqActivation.closeQuietly(qp);
        SrqActivation.closeQuietly(sendCq);
    }
}
