package io.rdma.srq.verbs.soft;

import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * A peer that stops half way through the rdma_cm handshake (IB CM, IBTA spec vol. 1 ch. 12): it sends
 * the connect request (REQ), the listener accepts it (REP), and it never sends the ready-to-use
 * message (RTU) — a host that died after its request, or one that speaks the CM protocol only up to
 * there. Its QP stays in RESET, the listener gets no ESTABLISHED. The listener's CM eventually gives up
 * ({@link #listenerGivesUp}): kernel cma.c reports a REP whose retries ran out
 * (IB_CM_REP_ERROR) as RDMA_CM_EVENT_UNREACHABLE with status -ETIMEDOUT, after
 * max_cm_retries (15) × the REQ's cm_response_timeout (librdmacm's 20: 4.3 s), about a minute; a
 * peer that answers the REP with a REJ gives REJECTED. Made by
 * {@link SoftProvider#connectWithoutRtu}; its own soft context, closed by {@link #close}.
 */
public final class SoftHalfOpenPeer implements AutoCloseable {
    private final SoftContext context;
    private final SoftCmConnection accepting;
    private final int acceptingQpNum;

    private SoftHalfOpenPeer(SoftContext context, SoftCmListener.Request accepted) {
        this.context = context;
        this.accepting = accepted.serverConnection();
        this.acceptingQpNum = accepted.serverEndpoint().qpNum();
    }

    /** Sends the REQ from a new context of {@code device} and waits for the REP; see {@link SoftProvider#connectWithoutRtu}. */
    static SoftHalfOpenPeer connect(SoftDevice device, InetSocketAddress remote, Duration timeout, byte[] privateData)
            throws VerbsException {
        SoftContext ctx = new SoftContext(device);
        try {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(1, null);
            QueuePair qp = pd.createQp(QpInitAttributes.builder(QpInitAttributes.QpType.RC).cq(cq)
                    .maxSendWr(1).maxRecvWr(1).maxRecvSge(1).build());
            return new SoftHalfOpenPeer(ctx, SoftCmConnection.request(ctx, qp, remote, timeout, privateData));
        } catch (RuntimeException e) {
            ctx.close();
            throw e;
        }
    }

    /** {@return the qp_num of the listener side's QP, the one its accept connected (the REP's QPN)} */
    public int acceptingQpNum() {
        return acceptingQpNum;
    }

    /**
     * The listener's CM gives up on the accepted connection: {@code type} on the listener, for the
     * accepted connection — UNREACHABLE (status -ETIMEDOUT: the REP's retries ran out), REJECTED (the
     * peer answered the REP with a REJ) or CONNECT_ERROR.
     *
     * @param type UNREACHABLE, REJECTED or CONNECT_ERROR
     * @throws IllegalArgumentException for another type
     */
    public void listenerGivesUp(CmEventType type) {
        switch (type) {
            case UNREACHABLE -> accepting.setupFailed(type, -Errno.ETIMEDOUT.value());
            case REJECTED, CONNECT_ERROR -> accepting.setupFailed(type, 0);
            default -> throw new IllegalArgumentException("a CM gives up with UNREACHABLE, REJECTED or CONNECT_ERROR, not "
                    + type);
        }
    }

    /** Closes the peer's context (its QP, CQ, PD). Idempotent. */
    @Override
    public void close() throws VerbsException {
        context.close();
    }
}
