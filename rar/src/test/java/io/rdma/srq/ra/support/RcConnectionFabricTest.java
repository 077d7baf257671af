package io.rdma.srq.ra.support;

import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.ConnectionParameters;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.soft.SoftProvider;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The adapter's one connect and one accept ({@link RcConnection}) hand the configured fabric
 * settings to the verbs layer: both QPs carry them (read back as ibv_query_qp does).
 */
class RcConnectionFabricTest {

    @Test
    void bothEndsUseTheirOwnSettings() throws Exception {
        int live = SoftProvider.liveObjects();
        ConnectionParameters connecting = FabricProperties.parse(new PropertyCheck(Object.class), "106", "12", "5", "3");
        ConnectionParameters accepting = FabricProperties.parse(new PropertyCheck(Object.class), "", "", "", "");
        try (Context ctx = new SoftProvider().open(SoftProvider.defaultDeviceName())) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(64, null);
            SharedReceiveQueue srq = pd.createSrq(new SrqAttributes(16, 1, 0));
            RcConnection.Receives receives = RcConnection.Receives.fromSrq(cq, srq);
            RcConnection.Sends sends = new RcConnection.Sends(64, "test", false);
            CmListener listener = ctx.listen(new InetSocketAddress("10.0.0.1", 0), 4);
            CompletableFuture<RcConnection> connect = CompletableFuture.supplyAsync(() -> {
                try {
                    return RcConnection.connect(pd, receives, sends, listener.localAddress(), Duration.ofSeconds(5),
                            new byte[0], connecting);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            CmEvent request = listener.nextEvent(Duration.ofSeconds(5)).orElseThrow();
            assertEquals(CmEventType.CONNECT_REQUEST, request.type());
            try (RcConnection accepted = RcConnection.accept(pd, receives, sends, request.request(), accepting);
                 RcConnection connected = connect.get(5, TimeUnit.SECONDS)) {
                assertEquals(connecting, connected.qp().queryConnectionParameters());
                assertEquals(new ConnectionParameters(OptionalInt.of(0), OptionalInt.of(14), 7, 7),
                        accepted.qp().queryConnectionParameters(), "defaults: rdma_cm's traffic class (0), 14, 7, 7");
            }
            listener.close();
        }
        assertEquals(live, SoftProvider.liveObjects());
    }
}
