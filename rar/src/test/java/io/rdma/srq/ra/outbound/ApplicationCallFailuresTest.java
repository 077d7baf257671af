package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.MessageTooLargeException;
import io.rdma.srq.api.PeerUnavailableException;
import io.rdma.srq.api.ReplyHandle;
import io.rdma.srq.api.SrqCallException;
import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.testing.SoftAdapterTest;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One exception family for application calls: send, flush, reply and connect fail with the same
 * unchecked {@link SrqCallException} subclasses a call does — grouped by what the caller should
 * do, each a {@link VerbsException} carrying the operation, the errno name and the peer.
 */
class ApplicationCallFailuresTest extends SoftAdapterTest {
    private static final Duration T = Duration.ofSeconds(10);

    private final TestEndpointFactory endpoints = new TestEndpointFactory();

    private SrqActivation activate() throws Exception {
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setProvider("soft");
        spec.setListenAddress("0.0.0.0");
        spec.setListenPort("0");
        spec.setSrqMaxWr("256");
        spec.setSrqLimit("0");
        spec.setResourceAdapter(ra);
        ra.endpointActivation(endpoints, spec);
        return ra.activations().getFirst();
    }

    private static InetSocketAddress at(SrqActivation a) {
        return new InetSocketAddress("10.0.0.1", a.listenAddress().getPort());
    }

    @Test
    void aSendAboveSendBufferSizeIsMessageTooLargeNamingThePeer() throws Exception {
        SrqActivation a = activate();
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer peer = c.connect(at(a), T);
            int tooLarge = Integer.parseInt(mcf.getSendBufferSize()) + 1;
            MessageTooLargeException e = assertThrows(MessageTooLargeException.class,
                    () -> peer.send(ByteBuffer.allocate(tooLarge)));
            assertEquals("EMSGSIZE", e.errnoName());
            assertEquals("ibv_post_send", e.operation());
            assertEquals(at(a).toString(), e.peer());
            assertInstanceOf(VerbsException.class, e.getCause(), "the verb's own failure is the cause");
            assertThrows(MessageTooLargeException.class, () -> peer.send(ByteBuffer.allocate(tooLarge), 7));
            peer.send(ByteBuffer.allocate(8)); // the peer stays usable
            peer.flush(T);
        }
    }

    @Test
    void aConnectNobodyAnswersIsPeerUnavailable() throws Exception {
        try (SrqConnection c = factory.getConnection()) {
            InetSocketAddress nobody = new InetSocketAddress("10.0.0.1", 1);
            PeerUnavailableException e = assertThrows(PeerUnavailableException.class, () -> c.connect(nobody, T));
            assertEquals("ECONNREFUSED", e.errnoName());
            assertEquals(nobody.toString(), e.peer());
        }
    }

    @Test
    void aReplyAfterTheConnectionIsGoneIsPeerUnavailable() throws Exception {
        CompletableFuture<ReplyHandle> kept = new CompletableFuture<>();
        endpoints.behaviour(m -> kept.complete(m.replyHandle()));
        SrqActivation a = activate();
        try (SrqConnection c = factory.getConnection()) {
            c.connect(at(a), T).send(ByteBuffer.allocate(8));
            ReplyHandle reply = kept.get(10, TimeUnit.SECONDS);
            ra.endpointDeactivation(endpoints, null);
            PeerUnavailableException e = assertThrows(PeerUnavailableException.class,
                    () -> reply.reply(ByteBuffer.allocate(8)));
            assertEquals("ENOTCONN", e.errnoName());
            assertTrue(e.peer().contains("connection " + reply.connectionId()), e.peer());
        }
    }
}
