package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.inbound.connections.CqSweep;
import io.rdma.srq.ra.inbound.connections.Links;

import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.ra.support.RcConnection;
import io.rdma.srq.ra.testing.SoftSender;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.ConnectionParameters;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.Verbs;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * The qp_num → connection-id map of {@link Links} keeps a closed connection's id for its late
 * completions, but not for ever: beyond the ids of the last closed connections kept, the oldest are
 * pruned, while open connections keep theirs.
 */
class ConnectionIdPruningTest {
    private static final int KEPT = 2;

    @Test
    void theIdsOfClosedConnectionsBeyondTheKeptOnesArePrunedOpenOnesStay() throws Exception {
        try (Context ctx = Verbs.provider(Verbs.SOFT).open("soft_rxe0")) {
            ProtectionDomain pd = ctx.allocPd();
            Links links = new Links("pruning", pd, ctx.createCq(256, null), pd.createSrq(new SrqAttributes(64, 1, 0)),
                    64, Duration.ofSeconds(1), ConnectionParameters.RDMA_CM_DEFAULTS, new CqSweep(), KEPT);
            CmListener listener = ctx.listen(new InetSocketAddress("10.0.0.1", 0), 8);
            List<SoftSender> senders = new ArrayList<>();
            try {
                RcConnection open = accept(links, listener, senders);
                long openId = links.connectionId(open.qpNum());
                List<int[]> closed = new ArrayList<>();
                List<Long> closedIds = new ArrayList<>();
                for (int i = 0; i < KEPT + 3; i++) {
                    RcConnection c = accept(links, listener, senders);
                    closed.add(new int[] {c.qpNum()});
                    closedIds.add(links.connectionId(c.qpNum()));
                    links.drop(c.qpNum());
                }
                accept(links, listener, senders); // a registration prunes what is beyond the kept ones
                for (int i = 0; i < closed.size(); i++) {
                    long id = links.connectionId(closed.get(i)[0]);
                    if (i < closed.size() - KEPT) {
                        assertEquals(0, id, "closed connection " + i + " is pruned");
                    } else {
                        assertEquals(closedIds.get(i), id, "closed connection " + i + " is among the last kept");
                    }
                }
                assertNotEquals(0, openId);
                assertEquals(openId, links.connectionId(open.qpNum()), "an open connection keeps its id");
            } finally {
                for (SoftSender s : senders) {
                    s.close();
                }
                links.closeAll();
            }
        }
    }

    /** A sender connects; {@code links} accepts its request. */
    private static RcConnection accept(Links links, CmListener listener, List<SoftSender> senders) throws Exception {
        CompletableFuture<SoftSender> sender = CompletableFuture.supplyAsync(() -> {
            try {
                return new SoftSender(listener.localAddress(), 64);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        CmEvent request;
        do { // ESTABLISHED and DISCONNECTED of the earlier connections come first
            request = listener.nextEvent(Duration.ofSeconds(10)).orElseThrow(() -> new AssertionError("no request"));
        } while (request.type() != CmEventType.CONNECT_REQUEST);
        RcConnection c = links.accept(request.request());
        senders.add(sender.get(10, TimeUnit.SECONDS));
        return c;
    }
}
