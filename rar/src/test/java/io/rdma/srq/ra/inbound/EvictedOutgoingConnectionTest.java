package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.CmEventType;
import io.rdma.srq.ra.testing.SoftActivationTest;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.soft.SoftProvider;
import io.rdma.srq.verbs.testing.LogLines;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An outgoing connection (connectTo) that the activation itself ends — IBV_EVENT_QP_FATAL on its QP,
 * or an eviction under ordering=connection — leaves through {@link io.rdma.srq.ra.inbound.connections.Retiring}, which destroys its QP and
 * rdma_cm id once its completions were taken, whether or not the connector has looked at it since (the
 * connector may be blocked meanwhile in another slot's connect, up to 3 × its connect timeout). The
 * connector then connects that slot again; its loop goes on (no SRQRA0314, no recovery of the
 * activation).
 */
class EvictedOutgoingConnectionTest extends SoftActivationTest {

    @Test
    void anOutgoingConnectionDestroyedWhileTheConnectorWaitsInAConnectIsConnectedAgain() throws Exception {
        try (Context peer = Verbs.provider(Verbs.SOFT).open("soft_mlx5_0");
             LogLines log = LogLines.capture("io.rdma.srq.ra")) {
            CmListener listener = peer.listen(new InetSocketAddress("10.0.0.2", 0), 8);
            SrqActivation a = activate("connectTo", "10.0.0.2:" + listener.localAddress().getPort(),
                    "connectCount", "2", "reconnectInterval", "100", "softProfile", "mlx5",
                    "listenAddress", "10.77.1.2");
            ProtectionDomain pd = peer.allocPd();
            MemoryRegion mr = pd.allocateRegistered(64, EnumSet.of(AccessFlag.LOCAL_WRITE));
            for (int c = 0; c < 2; c++) {
                QueuePair qp = qp(peer, pd);
                next(listener, CmEventType.CONNECT_REQUEST).request().accept(qp);
                next(listener, CmEventType.ESTABLISHED);
                qp.postSend(c, mr, 0, 8, null); // names the activation's QP of this connection to the test
            }
            await(() -> endpoints.received.size() == 2, "a message on each outgoing connection");
            int first = endpoints.received.get(0).qpNum();
            int second = endpoints.received.get(1).qpNum();
            assertTrue(SoftProvider.raiseQpFatal(first));
            await(() -> a.statistics().closedConnections() == 1, "the first outgoing connection destroyed");
            // its slot connects again; the peer does not answer yet, so the connector waits in that connect
            CmEvent pending = next(listener, CmEventType.CONNECT_REQUEST);
            assertTrue(SoftProvider.raiseQpFatal(second));
            await(() -> a.statistics().closedConnections() == 2,
                    "the second outgoing connection destroyed while the connector waits");
            pending.request().accept(qp(peer, pd));
            next(listener, CmEventType.CONNECT_REQUEST); // the second slot connects again
            assertEquals(List.of(), log.containing("SRQRA0314"), "the connector's loop goes on");
            assertEquals(2, a.statistics().closedConnections(), "the same run, not a recovered one: " + a.statistics());
        }
    }

    private static QueuePair qp(Context peer, ProtectionDomain pd) throws Exception {
        return pd.createQp(QpInitAttributes.builder(QpInitAttributes.QpType.RC)
                .cq(peer.createCq(16, null)).maxSendWr(1).maxRecvWr(1).maxRecvSge(1).build());
    }

    private static CmEvent next(CmListener listener, CmEventType type) throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<CmEvent> e = listener.nextEvent(Duration.ofMillis(20));
            if (e.isPresent() && e.get().type() == type) {
                return e.get();
            }
        }
        throw new AssertionError("no " + type);
    }
}
