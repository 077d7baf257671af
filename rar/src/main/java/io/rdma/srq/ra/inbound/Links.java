package io.rdma.srq.ra.inbound;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.support.RcConnection;
import io.rdma.srq.ra.support.Teardown;
import io.rdma.srq.verbs.CmRequest;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.SharedReceiveQueue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The connections of one activation, accepted or opened by it, by the qp_num of their QP: each an
 * {@link RcConnection} whose receives come from the activation's SRQ (completing on its CQ), with a
 * send ring of {@value RcConnection#SEND_DEPTH} × replyBufferSize bytes registered on its first
 * reply, so connections that never reply register no send memory. A reply finds its connection here
 * by the message's qp_num. Thread-safe.
 */
public final class Links {
    static final String REPLY_BUFFER_SIZE = "the activation's replyBufferSize";

    private final String name;
    private final ProtectionDomain pd;
    private final RcConnection.Receives receives;
    private final RcConnection.Sends replies;
    private final Map<Integer, RcConnection> byQpNum = new ConcurrentHashMap<>();

    /**
     * @param name            the activation's SRQ name, for messages
     * @param pd              the activation's PD
     * @param cq              the activation's CQ
     * @param srq             the activation's SRQ
     * @param replyBufferSize bytes per reply, ≥ 1
     */
    public Links(String name, ProtectionDomain pd, CompletionQueue cq, SharedReceiveQueue srq, int replyBufferSize) {
        this.name = name;
        this.pd = pd;
        this.receives = RcConnection.Receives.fromSrq(cq, srq);
        this.replies = new RcConnection.Sends(replyBufferSize, REPLY_BUFFER_SIZE, false);
    }

    /**
     * Accepts a connection request onto a new connection on the SRQ.
     *
     * @param request a CONNECT_REQUEST of the activation's listener; the caller rejects it on failure
     * @return the connection, accepted and registered
     * @throws VerbsException as {@link RcConnection#accept}; nothing is left open
     */
    RcConnection accept(CmRequest request) throws VerbsException {
        return add(RcConnection.accept(pd, receives, replies, request));
    }

    /**
     * Opens a new connection on the SRQ to a remote listener.
     *
     * @param remote  the listener
     * @param timeout bound for each rdma_cm step
     * @param privateData the connect's private data (the admission token, or empty)
     * @return the connection, established and registered
     * @throws VerbsException as {@link RcConnection#connect}; nothing is left open
     */
    RcConnection connect(InetSocketAddress remote, Duration timeout, byte[] privateData) throws VerbsException {
        return add(RcConnection.connect(pd, receives, replies, remote, timeout, privateData));
    }

    private RcConnection add(RcConnection link) {
        byQpNum.put(link.qpNum(), link);
        return link;
    }

    /**
     * Forgets the connection of {@code qpNum} and closes it (disconnect, destroy), quietly.
     *
     * @param qpNum the connection's qp_num; unknown ones are ignored
     */
    void drop(int qpNum) {
        Teardown.quietly(byQpNum.remove(qpNum));
    }

    /**
     * Sends a reply on the connection a message arrived on.
     *
     * @param qpNum   the local QP of the message (its work completion's qp_num)
     * @param message the bytes, at most replyBufferSize
     * @param immData immediate data, or null
     * @throws VerbsException ENOTCONN when that connection is gone; else as {@link RcConnection#send}
     */
    void reply(int qpNum, ByteBuffer message, Integer immData) throws VerbsException {
        RcConnection link = byQpNum.get(qpNum);
        if (link == null) {
            throw new VerbsException("ibv_post_send", Errno.ENOTCONN, "activation " + name + ": QP " + qpNum
                    + " is no longer connected");
        }
        link.send(message, immData);
    }

    /** Closes every connection, quietly (deactivation). */
    void closeAll() {
        for (RcConnection link : List.copyOf(byQpNum.values())) {
            Teardown.quietly(link);
        }
        byQpNum.clear();
    }

    /** @return connections now */
    int size() {
        return byQpNum.size();
    }
}
