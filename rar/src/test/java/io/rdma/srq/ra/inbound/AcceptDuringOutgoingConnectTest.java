package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;

import io.rdma.srq.api.CmEventType;
import io.rdma.srq.ra.testing.SoftActivationTest;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.Verbs;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An outgoing connect (connectTo) that waits for a peer which does not answer holds nothing the
 * control loop needs: a connect request arriving meanwhile is accepted while that connect still waits.
 */
class AcceptDuringOutgoingConnectTest extends SoftActivationTest {

    @Test
    void aRequestIsAcceptedWhileTheConnectToPeerHasNotAnswered() throws Exception {
        try (Context peer = Verbs.provider(Verbs.SOFT).open("soft_mlx5_0")) {
            CmListener silent = peer.listen(new InetSocketAddress("10.0.0.2", 0), 4);
            SrqActivation a = activate("connectTo", "10.0.0.2:" + silent.localAddress().getPort(),
                    "connectCount", "1", "reconnectInterval", "600000");
            CmEvent outgoing = silent.nextEvent(PATIENCE).orElseThrow(() -> new AssertionError("no connect from connectTo"));
            assertEquals(CmEventType.CONNECT_REQUEST, outgoing.type());
            // the connector now waits (up to its connect timeout) for an answer the peer has not given
            sender(a, 64);
            // accepted meanwhile: the outgoing connect still waits, so the peer can still answer it
            ProtectionDomain pd = peer.allocPd();
            QueuePair qp = pd.createQp(QpInitAttributes.builder(QpInitAttributes.QpType.RC)
                    .cq(peer.createCq(16, null)).maxSendWr(1).maxRecvWr(1).maxRecvSge(1).build());
            assertDoesNotThrow(() -> outgoing.request().accept(qp), "the outgoing connect was still waiting");
            await(() -> a.statistics().connections() == 2, "the accepted and the outgoing connection");
        }
    }
}
