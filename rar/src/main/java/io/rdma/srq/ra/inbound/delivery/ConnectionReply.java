package io.rdma.srq.ra.inbound.delivery;

import io.rdma.srq.ra.inbound.connections.Links;

import io.rdma.srq.api.ReplyHandle;
import io.rdma.srq.api.SrqCallException;
import io.rdma.srq.api.VerbsException;

import java.nio.ByteBuffer;

/**
 * The reply handle of one delivered message: its connection (qp_num and the id never reused) and
 * the imm_data a reply echoes. Holds no native object: each reply looks the connection up in
 * {@link Links}, which fails with ENOTCONN once it is gone, so a handle kept past deactivation or a
 * disconnect is safe to call from any thread.
 *
 * @param links        the activation's connections
 * @param qpNum        the local QP the message arrived on
 * @param connectionId the connection's id (0: it was already gone)
 * @param echo         imm_data of the request, echoed by {@link #reply(ByteBuffer)}; null for a plain SEND
 */
record ConnectionReply(Links links, int qpNum, long connectionId, Integer echo) implements ReplyHandle {

    @Override
    public void reply(ByteBuffer message) {
        try {
            links.reply(qpNum, connectionId, message, echo);
        } catch (VerbsException e) {
            throw SrqCallException.of(e, peer());
        }
    }

    @Override
    public void reply(ByteBuffer message, int immData) {
        try {
            links.reply(qpNum, connectionId, message, immData);
        } catch (VerbsException e) {
            throw SrqCallException.of(e, peer());
        }
    }

    /** {@return the sender as a failure names it: the connection, as the activation knows it} */
    private String peer() {
        return links.remoteOf(qpNum, connectionId);
    }

    @Override
    public String toString() {
        return "ReplyHandle[connection=" + connectionId + ", qp_num=" + qpNum + "]";
    }
}
