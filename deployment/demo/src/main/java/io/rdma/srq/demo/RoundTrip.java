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

    /**
     * The same round trip to the other server's responder ({@code run-demo.sh --two-servers}):
     * through the connection definition {@value #FABRIC_DEFINITION} (provider fabric, which
     * {@code fabric.cli} adds), to {@code FabricResponder} on 127.0.0.1:7473.
     *
     * @param request the request bytes
     * @return the other server's reply (the same bytes)
     * @throws Exception from the adapter, or a NamingException when the definition is not configured
     */
    public byte[] callPeer(byte[] request) throws Exception {
        try (SrqConnection c = fabric().getConnection()) {
            return c.connect(PEER, TIMEOUT).call(ByteBuffer.wrap(request), TIMEOUT).copyPayload();
        }
    }

    /**
     * The same round trip by service name ({@code run-demo.sh --cluster}): {@code connect("demo-peer")}
     * through {@value #FABRIC_DEFINITION}; the adapter finds {@code FabricResponder}'s publication on the
     * other node in WildFly's clustering registrar.
     *
     * @param request the request bytes
     * @return the reply (the same bytes)
     * @throws Exception from the adapter (PeerUnavailableException EHOSTUNREACH where nobody serves it)
     */
    public byte[] callService(byte[] request) throws Exception {
        try (SrqConnection c = fabric().getConnection()) {
            return c.connect(SERVICE, TIMEOUT).call(ByteBuffer.wrap(request), TIMEOUT).copyPayload();
        }
    }

    /**
     * The same round trip to the cluster singleton ({@code run-demo.sh --cluster}): {@code connect("demo-singleton")}
     * through {@value #FABRIC_DEFINITION}, answered by whichever server WildFly's singleton policy elected.
     *
     * @param request the request bytes
     * @return the reply (the same bytes)
     * @throws Exception from the adapter (PeerUnavailableException EHOSTUNREACH when no primary appears in time)
     */
    public byte[] callSingleton(byte[] request) throws Exception {
        try (SrqConnection c = fabric().getConnection()) {
            return c.connect(io.rdma.srq.demo.singleton.SingletonResponder.SERVICE, TIMEOUT).call(ByteBuffer.wrap(request),
                    TIMEOUT).copyPayload();
        }
    }

    private SrqConnectionFactory fabric() throws javax.naming.NamingException {
        SrqConnectionFactory fabric = fabricFactory;
        if (fabric == null) {
            fabric = javax.naming.InitialContext.doLookup(FABRIC_DEFINITION);
            fabricFactory = fabric;
        }
        return fabric;
    }

    /** The service name FabricResponder publishes. */
    public static final String SERVICE = io.rdma.srq.demo.peer.FabricResponder.SERVICE;

    /** Looked up at the first {@link #callPeer}: the single-server demo has no such definition. */
    private volatile SrqConnectionFactory fabricFactory;

    /** The JNDI name of the connection definition on libfabric's tcp (deployment/src/main/cli/fabric.cli). */
    public static final String FABRIC_DEFINITION = "java:/eis/SrqFabric";
    private static final InetSocketAddress PEER = new InetSocketAddress(
            io.rdma.srq.demo.peer.FabricResponder.LISTEN_ADDRESS, io.rdma.srq.demo.peer.FabricResponder.LISTEN_PORT);
}
