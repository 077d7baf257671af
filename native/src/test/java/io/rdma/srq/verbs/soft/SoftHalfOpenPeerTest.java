package io.rdma.srq.verbs.soft;

import io.rdma.srq.api.AsyncEventType;
import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.Errno;
import io.rdma.srq.verbs.AsyncEvent;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The soft rdma_cm's half-open peer (REQ, REP, no RTU): the listener's accept succeeds and no
 * ESTABLISHED follows until the listener's CM gives up; and IBV_EVENT_QP_FATAL of a QP.
 */
class SoftHalfOpenPeerTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void anAcceptedPeerThatSendsNoRtuGetsNoEstablishedUntilTheCmGivesUp() throws Exception {
        int live = SoftProvider.liveObjects();
        try (Context ctx = new SoftProvider().open(SoftProfile.RXE)) {
            CmListener listener = ctx.listen(new InetSocketAddress("10.0.0.1", 0), 4);
            CompletableFuture<SoftHalfOpenPeer> peer = CompletableFuture.supplyAsync(() -> {
                try {
                    return SoftProvider.connectWithoutRtu("soft_mlx5_0", listener.localAddress(), WAIT, new byte[0]);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            CmEvent request = listener.nextEvent(WAIT).orElseThrow();
            assertEquals(CmEventType.CONNECT_REQUEST, request.type());
            QueuePair qp = qp(ctx);
            CmConnection accepted = request.request().accept(qp);
            try (SoftHalfOpenPeer p = peer.get(10, TimeUnit.SECONDS)) {
                assertEquals(qp.qpNum(), p.acceptingQpNum());
                // the connecting side returned after the REP: an RTU would have queued ESTABLISHED by now
                assertTrue(listener.nextEvent(Duration.ZERO).isEmpty(), "no ESTABLISHED without the RTU");
                assertFalse(accepted.isEstablished());
                p.listenerGivesUp(CmEventType.UNREACHABLE);
                CmEvent gaveUp = listener.nextEvent(WAIT).orElseThrow();
                assertEquals(CmEventType.UNREACHABLE, gaveUp.type());
                assertEquals(-Errno.ETIMEDOUT.value(), gaveUp.status());
                assertSame(accepted, gaveUp.connection());
                assertThrows(IllegalArgumentException.class, () -> p.listenerGivesUp(CmEventType.ESTABLISHED));
            }
        }
        assertEquals(live, SoftProvider.liveObjects(), "the peer's context is closed with it");
    }

    @Test
    void qpFatalMovesTheQpToErrorAndNamesItOnItsContext() throws Exception {
        try (Context ctx = new SoftProvider().open(SoftProfile.RXE)) {
            QueuePair qp = qp(ctx);
            assertTrue(SoftProvider.raiseQpFatal(qp.qpNum()));
            AsyncEvent e = ctx.getAsyncEvent(WAIT).orElseThrow();
            assertEquals(AsyncEventType.QP_FATAL, e.type());
            assertSame(qp, e.element());
            int qpNum = qp.qpNum();
            qp.close();
            assertFalse(SoftProvider.raiseQpFatal(qpNum), "no such QP any more");
        }
    }

    private static QueuePair qp(Context ctx) throws Exception {
        ProtectionDomain pd = ctx.allocPd();
        return pd.createQp(QpInitAttributes.builder(QpInitAttributes.QpType.RC).cq(ctx.createCq(4, null))
                .maxSendWr(1).maxRecvWr(1).maxRecvSge(1).build());
    }
}
