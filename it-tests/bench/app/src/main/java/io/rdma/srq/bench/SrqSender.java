package io.rdma.srq.bench;

import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.api.SrqPeer;
import jakarta.ejb.AsyncResult;
import jakarta.ejb.Asynchronous;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;

/**
 * One sender of an SRQ throughput case, as an application sends: a pooled connection of the
 * case's connection factory ({@link ThroughputDriver}'s {@code @Inject SrqConnectionFactory}, or
 * {@link ServerB#srq()}), {@code peers} {@link SrqPeer}s connected to the sink's listener, the
 * messages round-robin over them, then a flush of each (every message acknowledged by the receiver's
 * QP).
 */
@Stateless
public class SrqSender {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration FLUSH_TIMEOUT = Duration.ofSeconds(120);

    /**
     * @param factory  the adapter's connection factory
     * @param remote   the sink activation's listen address
     * @param peers    connections to spread the messages over, ≥ 1
     * @param messages messages to send
     * @param size     bytes per message
     * @param sent     incremented every {@link Sends#REPORT_EVERY} messages (and at the end)
     * @return messages sent, all acknowledged
     * @throws Exception from the adapter
     */
    @Asynchronous
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public Future<Long> send(SrqConnectionFactory factory, InetSocketAddress remote, int peers, long messages, int size,
                             SendProgress sent) throws Exception {
        ByteBuffer message = ByteBuffer.allocateDirect(size);
        try (SrqConnection c = factory.getConnection()) {
            List<SrqPeer> connected = new ArrayList<>(peers);
            try {
                for (int i = 0; i < peers; i++) {
                    connected.add(c.connect(remote, CONNECT_TIMEOUT));
                }
                Sends sends = new Sends(sent);
                for (long i = 0; i < messages; i++) {
                    connected.get((int) (i % peers)).send(message.clear(), (int) i);
                    sends.one();
                }
                sends.done();
                for (SrqPeer p : connected) {
                    p.flush(FLUSH_TIMEOUT);
                }
            } finally {
                for (SrqPeer p : connected) {
                    p.close();
                }
            }
        }
        return new AsyncResult<>(messages);
    }
}
