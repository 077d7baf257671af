package io.rdma.srq.verbs.lab;

import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.verbs.Context;
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
    @DisplayName("efadv_query_device(3) on a non-EFA device: not available")
    void efaIsNotAvailableOnRxe() throws Exception {
        try (Context ctx = Verbs.provider(Verbs.IBVERBS).open(device)) {
            assertTrue(ctx.queryEfaDevice().isEmpty());
        }
    }
}
