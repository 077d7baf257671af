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
        InetSocketAddress remote = new InetSocketAddress(Messages.ADDRESS, port);
        ByteBuffer buffer = ByteBuffer.allocateDirect(Messages.SIZE);
        try (SrqConnection c = factory.getConnection()) {
            List<SrqPeer> peers = new ArrayList<>();
            try {
                for (int i = 0; i < connections; i++) {
                    peers.add(c.connect(remote, Duration.ofSeconds(10)));
                }
                for (int i = 0; i < messages; i++) {
                    peers.get(i % connections).send(Messages.encode(buffer, i, marker), i);
                }
                long sent = 0;
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
