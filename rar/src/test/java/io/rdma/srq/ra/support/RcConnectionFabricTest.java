package io.rdma.srq.ra.support;

import io.rdma.srq.ra.testing.RcPair;
import io.rdma.srq.verbs.ConnectionParameters;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.soft.SoftProvider;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The adapter's one connect and one accept ({@link RcConnection}) hand the configured fabric
 * settings to the verbs layer: both QPs carry them (read back as ibv_query_qp does). The lab runs
 * the same on rxe0 ({@code FabricLabTest}).
 */
class RcConnectionFabricTest {

    @Test
    void bothEndsUseTheirOwnSettings() throws Exception {
        int live = SoftProvider.liveObjects();
        PropertyCheck check = new PropertyCheck(Object.class);
        ConnectionParameters connecting = FabricProperties.parse(check, "106", "12", "5", "3");
        ConnectionParameters accepting = FabricProperties.parse(check, "", "", "", "");
        try (Context ctx = new SoftProvider().open(SoftProvider.defaultDeviceName());
             RcPair pair = RcPair.open(ctx, InetAddress.ofLiteral("10.0.0.1"), connecting, accepting)) {
            assertEquals(connecting, pair.connected().qp().queryConnectionParameters());
            assertEquals(new ConnectionParameters(OptionalInt.of(0), OptionalInt.of(14), FabricProperties.DEFAULT_RETRY_COUNT, 7),
                    pair.accepted().qp().queryConnectionParameters(), "defaults: rdma_cm's traffic class (0), 14, 6, 7");
        }
        assertEquals(live, SoftProvider.liveObjects());
    }
}
