package io.rdma.srq.demo;

import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqConnectionFactory;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * One EJB → MDB → EJB round trip: a pooled connection ({@code @Inject SrqConnectionFactory}), its
 * pooled peer to {@link DemoResponder} (reused: no rdma_cm handshake after the first call), one
 * {@code SrqPeer.call}. A plain business method, so a benchmark harness can drive it as it is.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class RoundTrip {
    private static final InetSocketAddress RESPONDER =
            new InetSocketAddress(DemoReceiver.LISTEN_ADDRESS, DemoResponder.LISTEN_PORT);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Inject
    SrqConnectionFactory factory;

    /**
     * @param request the request bytes, at most the connection definition's sendBufferSize
     * @return the responder's reply (the same bytes)
     * @throws Exception from the adapter (an {@code SrqCallException} names the errno)
     */
    public byte[] call(byte[] request) throws Exception {
        try (SrqConnection c = factory.getConnection()) {
            return c.connect(RESPONDER, TIMEOUT).call(ByteBuffer.wrap(request), TIMEOUT).copyPayload();
        }
    }
}
