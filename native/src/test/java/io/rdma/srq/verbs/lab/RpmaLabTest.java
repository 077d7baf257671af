package io.rdma.srq.verbs.lab;

import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.RpmaConnection;
import io.rdma.srq.verbs.RpmaEndpoint;
import io.rdma.srq.verbs.RpmaMemory;
import io.rdma.srq.verbs.RpmaPeer;
import io.rdma.srq.verbs.RpmaSrq;
import io.rdma.srq.verbs.RpmaSrqConfig;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.WorkCompletionArray;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** librpma SRQs (rpma_srq_new(3)) on a real device; needs the rxe lab, skipped elsewhere with the reason. */
class RpmaLabTest {
    private static final String HOW = "needs a libibverbs device: run it-tests/lab/run-lab.sh "
            + "(-Dverbs.provider=ibverbs -Dverbs.device=rxe0)";
    private String device;

    @BeforeEach
    void lab() {
        assumeTrue("ibverbs".equals(System.getProperty("verbs.provider")), HOW);
        device = System.getProperty("verbs.device");
        assumeTrue(device != null, HOW);
    }

    @Test
    @DisplayName("rpma_srq_new(3): cfg NULL uses the defaults, rq_size and rcq_size 20; limit 0, max_sge 1")
    void defaultsWithoutAConfig() throws Exception {
        try (Context ctx = Verbs.provider(Verbs.IBVERBS).open(device); RpmaPeer peer = ctx.openRpmaPeer();
             RpmaSrq srq = peer.createSrq(null)) {
            SrqAttributes a = srq.query();
            assertTrue(a.maxWr() >= 20, "max_wr " + a.maxWr() + " ≥ rq_size 20");
            assertEquals(1, a.maxSge(), "librpma creates its SRQ with max_sge 1");
            assertEquals(0, a.srqLimit(), "and srq_limit 0");
            assertTrue(srq.hasReceiveCq(), "rcq_size 20 by default");
        }
    }

    @Test
    @DisplayName("rcq_size 0: no shared receive CQ; receives post; the limit is armed through ibv_modify_srq")
    void noReceiveCqAndTheLimitThroughTheVerbsLayer() throws Exception {
        try (Context ctx = Verbs.provider(Verbs.IBVERBS).open(device); RpmaPeer peer = ctx.openRpmaPeer();
             RpmaSrq srq = peer.createSrq(new RpmaSrqConfig(64, 0));
             RpmaMemory mem = peer.registerForReceive(64 * 256);
             WorkCompletionArray wcs = new WorkCompletionArray(4)) {
            assertFalse(srq.hasReceiveCq());
            for (int i = 0; i < 10; i++) {
                srq.recv(mem, i * 256L, 256, i);
            }
            srq.armLimit(7);
            assertEquals(7, srq.query().srqLimit());
            assertThrows(io.rdma.srq.api.VerbsException.class, () -> srq.pollReceiveCq(wcs));
        }
    }

    @Test
    @DisplayName("rpma SRQ received on: rpma_ep_listen, a connection configured with rpma_conn_cfg_set_srq, a SEND "
            + "from a verbs QP over rdma_cm lands in rpma_srq_recv's buffer and on rpma_srq_get_rcq's CQ")
    void anRpmaSrqReceivesAMessage() throws Exception {
        String address = System.getProperty("verbs.listenAddress");
        assumeTrue(address != null, HOW);
        try (Context server = Verbs.provider(Verbs.IBVERBS).open(device); RpmaPeer peer = server.openRpmaPeer();
             RpmaSrq srq = peer.createSrq(new RpmaSrqConfig(16, 16));
             RpmaMemory mem = peer.registerForReceive(16 * 256);
             RpmaEndpoint ep = peer.listen(address, 7490);
             Context client = Verbs.provider(Verbs.IBVERBS).open(device);
             WorkCompletionArray wcs = new WorkCompletionArray(4)) {
            for (int i = 0; i < 4; i++) {
                srq.recv(mem, i * 256L, 256, 100 + i);
            }
            io.rdma.srq.verbs.ProtectionDomain pd = client.allocPd();
            io.rdma.srq.verbs.CompletionQueue cq = client.createCq(16, null);
            io.rdma.srq.verbs.QueuePair qp = pd.createQp(io.rdma.srq.verbs.QpInitAttributes.builder(
                    io.rdma.srq.verbs.QpInitAttributes.QpType.RC).cq(cq).maxSendWr(4).maxRecvWr(1).maxRecvSge(1).build());
            io.rdma.srq.verbs.MemoryRegion mr = pd.allocateRegistered(64, java.util.EnumSet.of(io.rdma.srq.api.AccessFlag.LOCAL_WRITE));
            mr.segment().setString(0, "hello rpma srq");
            java.util.concurrent.CompletableFuture<io.rdma.srq.verbs.CmConnection> connecting =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                        try {
                            return client.connect(qp, new java.net.InetSocketAddress(address, 7490), java.time.Duration.ofSeconds(20));
                        } catch (io.rdma.srq.api.VerbsException e) {
                            throw new java.util.concurrent.CompletionException(e);
                        }
                    });
            RpmaConnection conn = ep.accept(srq, java.time.Duration.ofSeconds(20)).orElseThrow(
                    () -> new AssertionError("no connection request"));
            io.rdma.srq.verbs.CmConnection c = connecting.get(20, java.util.concurrent.TimeUnit.SECONDS);
            qp.postSend(7, mr, 0, 15, 0x1234);
            long deadline = System.nanoTime() + java.time.Duration.ofSeconds(10).toNanos();
            int n = 0;
            while (n == 0 && System.nanoTime() < deadline) {
                n = srq.pollReceiveCq(wcs);
            }
            assertEquals(1, n, "one receive completion on the rpma SRQ's receive CQ");
            assertTrue(wcs.isSuccess(0), "status " + wcs.status(0));
            assertEquals(15, wcs.byteLen(0));
            assertEquals(0x1234, wcs.immData(0));
            int buffer = (int) (wcs.wrId(0) - 100);
            assertEquals("hello rpma srq", mem.segment().getString(buffer * 256L));
            c.close();
            conn.close();
        }
    }

    @Test
    @DisplayName("efadv_query_device(3) on a non-EFA device: not available")
    void efaIsNotAvailableOnRxe() throws Exception {
        try (Context ctx = Verbs.provider(Verbs.IBVERBS).open(device)) {
            assertTrue(ctx.queryEfaDevice().isEmpty());
        }
    }
}
