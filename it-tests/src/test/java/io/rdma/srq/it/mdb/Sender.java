package io.rdma.srq.it.mdb;

import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.api.SrqPeer;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Sends test messages from inside the server, as an application does: {@code @Inject
 * SrqConnectionFactory} → getConnection() → connect() per peer → send() round-robin → flush().
 * Peers are pooled per remote address and SRQ, so {@code connections} distinct connections to one
 * listener name one pooled SRQ each ({@code sender-0}, {@code sender-1}, …).
 */
@Stateless
public class Sender {

    @Inject
    SrqConnectionFactory factory;

    /**
     * Sends messages 0..messages-1 (sequence number as imm_data and in the payload).
     *
     * @param port        the activation's listenPort
     * @param connections peers to spread the messages over, round-robin
     * @param messages    how many
     * @param marker      the stream marker in every payload
     * @return messages sent, every one of them completed (flushed)
     * @throws Exception from the adapter
     */
    public long send(int port, int connections, int messages, byte marker) throws Exception {
        return send("sender", port, connections, messages, marker);
    }

    /**
     * Sends messages 0..messages-1 over the pooled peers {@code prefix-0}, {@code prefix-1}, …: a prefix
     * not used before makes new connections.
     *
     * @param prefix      the peers' SRQ names, before their number
     * @param port        the activation's listenPort
     * @param connections peers to spread the messages over, round-robin
     * @param messages    how many
     * @param marker      the stream marker in every payload
     * @return messages sent, every one of them completed (flushed)
     * @throws Exception from the adapter
     */
    public long send(String prefix, int port, int connections, int messages, byte marker) throws Exception {
        InetSocketAddress remote = new InetSocketAddress(Messages.ADDRESS, port);
        ByteBuffer buffer = ByteBuffer.allocateDirect(Messages.SIZE);
        try (SrqConnection c = factory.getConnection()) {
            List<SrqPeer> peers = new ArrayList<>();
            try {
                long before = 0;
                for (int i = 0; i < connections; i++) {
                    SrqPeer p = c.connect(remote, prefix + "-" + i, Duration.ofSeconds(10));
                    peers.add(p);
                    before += p.sent(); // a pooled peer has sent for earlier handles too
                }
                for (int i = 0; i < messages; i++) {
                    peers.get(i % connections).send(Messages.encode(buffer, i, marker), i);
                }
                long sent = -before;
                for (SrqPeer p : peers) {
                    p.flush(Duration.ofSeconds(30));
                    sent += p.sent();
                }
                return sent;
            } finally {
                for (SrqPeer p : peers) {
                    p.close();
                }
            }
        }
    }
}
