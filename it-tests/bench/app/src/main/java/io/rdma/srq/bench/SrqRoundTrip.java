package io.rdma.srq.bench;

import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.api.SrqPeer;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * Request/reply over pooled SRQs as an application writes it: per caller thread a pooled
 * connection of the injected {@link SrqConnectionFactory} and its pooled {@link SrqPeer} to the
 * responder's listener (established once, reused for every call); each request one
 * {@link SrqPeer#call(ByteBuffer, Duration)} of {@code size} bytes, whose reply (the responder's
 * echo, correlated by the adapter) it waits for.
 */
public final class SrqRoundTrip implements RoundTrip {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration REPLY_TIMEOUT = Duration.ofMillis(RoundTrips.REPLY_TIMEOUT_MILLIS);

    private final String label;
    private final Callable<SrqConnectionFactory> factory;
    private final InetSocketAddress responder;

    /**
     * @param label the case name
     * @param factory   gives the adapter's connection factory (pool of java:/eis/SrqConnectionFactory,
     *                  or {@link ServerB#srq()}), asked at each {@link #open}
     * @param responder the responder activation's listen address
     */
    public SrqRoundTrip(String label, Callable<SrqConnectionFactory> factory, InetSocketAddress responder) {
        this.label = label;
        this.factory = factory;
        this.responder = responder;
    }

    @Override
    public String label() {
        return label;
    }

    @Override
    public Caller open(int size) throws Exception {
        SrqConnection connection = factory.call().getConnection();
        try {
            SrqPeer peer = connection.connect(responder, CONNECT_TIMEOUT);
            return new SrqCaller(connection, peer, ByteBuffer.allocateDirect(size));
        } catch (Exception e) {
            connection.close();
            throw e;
        }
    }

    private record SrqCaller(SrqConnection connection, SrqPeer peer, ByteBuffer request) implements Caller {
        @Override
        public void call() {
            peer.call(request.clear(), REPLY_TIMEOUT);
        }

        @Override
        public void close() throws Exception {
            try {
                peer.close();
            } finally {
                connection.close();
            }
        }
    }
}
