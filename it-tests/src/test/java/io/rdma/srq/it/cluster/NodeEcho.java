package io.rdma.srq.it.cluster;

import io.rdma.srq.api.ReceiveCompletion;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** The cluster ITs' answer: the request + {@code "@"} + this node's name (jboss.node.name). */
public final class NodeEcho {
    private static final byte[] NODE = ("@" + System.getProperty("jboss.node.name")).getBytes(StandardCharsets.US_ASCII);

    private NodeEcho() {
    }

    /** Replies to the request with its payload and this node's name. @param completion the request */
    public static void answer(ReceiveCompletion completion) {
        ByteBuffer reply = ByteBuffer.allocate(completion.length() + NODE.length).put(completion.payload()).put(NODE);
        completion.reply(reply.flip());
    }
}
