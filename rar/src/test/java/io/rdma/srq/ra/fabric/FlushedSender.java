package io.rdma.srq.ra.fabric;

import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.ra.bench.EchoCallPair;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;

/**
 * The peer of {@link LibfabricKilledSenderTest}, a JVM of its own: a pooled connection's peer on
 * PROVIDER/DEVICE sends MESSAGES messages of 64 bytes to ADDRESS:PORT (the sequence number as a
 * native-order long at offset 0 and as immediate data), flushes (every send complete), prints
 * {@code FLUSHED n}, then holds its connection open until it is killed or its stdin closes.
 *
 * <p>Usage: {@code FlushedSender PROVIDER DEVICE ADDRESS PORT MESSAGES}.
 */
public final class FlushedSender {
    private FlushedSender() {
    }

    /**
     * @param args PROVIDER DEVICE ADDRESS PORT MESSAGES
     * @throws Exception connection or send failure (exit code 1)
     */
    public static void main(String[] args) throws Exception {
        int messages = Integer.parseInt(args[4]);
        try (EchoCallPair sender = EchoCallPair.sender(args[0], args[1]);
             SrqConnection c = sender.newConnection()) {
            SrqPeer p = c.connect(new InetSocketAddress(args[2], Integer.parseInt(args[3])), Duration.ofSeconds(30));
            ByteBuffer m = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
            for (int seq = 0; seq < messages; seq++) {
                p.send(m.clear().putLong(0, seq), seq);
            }
            p.flush(Duration.ofSeconds(60));
            System.out.println("FLUSHED " + p.sent());
            System.out.flush();
            while (System.in.read() >= 0) {
                // held open until killed
            }
        }
    }
}
