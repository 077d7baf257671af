package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.support.RcConnection;
import io.rdma.srq.ra.testing.SoftActivationTest;
import io.rdma.srq.ra.testing.SoftAdapterTest;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.ConnectionParameters;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.Verbs;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

/**
 * A peer's link ends (here: it failed) while messages the peer sent — acknowledged to it — are still
 * in the pooled SRQ's CQ, because the connection's user is not receiving and no servicing round ran:
 * retiring the link moves its QP to ERR, drains the CQ and only then destroys the QP, so every
 * acknowledged message is received or counted and their receive buffers go back to the SRQ. On
 * soft_mlx5_0, whose ibv_destroy_qp cleans the QP's completions out of the CQ as mlx5 does (driver
 * note 18), destroying first would make them vanish uncounted. The peer is a plain RC sender on
 * soft_rxe0.
 */
class PeerTeardownDrainTest extends SoftAdapterTest {
    private static final Duration T = Duration.ofSeconds(10);
    private static final int MESSAGES = 40;

    @Test
    void acknowledgedMessagesOfAnEndedPeerAreReceivedOrCountedAndTheirBuffersGoBack() throws Exception {
        mcf.setSoftProfile("mlx5");
        try (Context remote = Verbs.provider("soft").open("soft_rxe0")) {
            ProtectionDomain pd = remote.allocPd();
            CmListener listener = remote.listen(new InetSocketAddress("10.0.0.4", 0), 4);
            try (SrqConnection c = factory.getConnection()) {
                CompletableFuture<RcConnection> accepted = CompletableFuture.supplyAsync(() -> accept(listener, pd));
                c.connect(listener.localAddress(), T);
                RcConnection sender = accepted.get(10, TimeUnit.SECONDS);
                CompletableFuture<RcConnection> reconnect = CompletableFuture.supplyAsync(() -> accept(listener, pd));
                SrqManagedConnection mc = (SrqManagedConnection) cm.all.iterator().next();
                PeerLink link = mc.peer(listener.localAddress(), "default", T);
                long full = mc.outstandingReceives();
                mcf.receiveService().unregister(mc); // no servicing round: the messages stay in the CQ

                for (int i = 0; i < MESSAGES; i++) {
                    sender.send(ByteBuffer.allocate(8).putLong(0, i), null);
                }
                sender.flush(T); // every send acknowledged: its receive completion is on the pooled CQ

                link.fail(new VerbsException("ibv_poll_cq", Errno.EIO, "the test ends the link"));
                assertNotSame(link, mc.peer(listener.localAddress(), "default", T), "the ended link retired");
                mcf.receiveService().register(mc); // servicing again: what the CQ still holds is taken (as stray)

                SoftActivationTest.await(() -> mc.droppedUnsolicited() + mc.strayMessages() == MESSAGES,
                        "every acknowledged message received or counted (discarded or stray)");
                SoftActivationTest.await(() -> mc.outstandingReceives() == full, "the pooled SRQ full again");
                assertEquals(MESSAGES, mc.droppedUnsolicited(), "taken before the QP was destroyed, then counted");
                sender.close();
                reconnect.get(10, TimeUnit.SECONDS).close();
            }
            cm.flush();
        }
    }

    private static RcConnection accept(CmListener listener, ProtectionDomain pd) {
        try {
            CmEvent request;
            do { // the listener's id also hears its accepted connections' ESTABLISHED, DISCONNECTED
                request = listener.nextEvent(T).orElseThrow(() -> new AssertionError("no connect request"));
            } while (request.type() != CmEventType.CONNECT_REQUEST);
            return RcConnection.accept(pd, RcConnection.Receives.none(), new RcConnection.Sends(64, "test", true),
                    request.request(), ConnectionParameters.RDMA_CM_DEFAULTS);
        } catch (VerbsException e) {
            throw new IllegalStateException(e);
        }
    }
}
