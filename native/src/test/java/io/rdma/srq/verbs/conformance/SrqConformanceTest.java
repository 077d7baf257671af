package io.rdma.srq.verbs.conformance;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.PostReceiveException;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.SharedReceiveQueue;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.EnumSet;

import static io.rdma.srq.verbs.SharedReceiveQueue.MODIFY_LIMIT;
import static io.rdma.srq.verbs.SharedReceiveQueue.MODIFY_MAX_WR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * ibv_create_srq(3), ibv_query_srq(3), ibv_modify_srq(3), ibv_post_srq_recv and ibv_destroy_srq on
 * one device: sizes, limits, errno values, and driver notes 1–5 and 7 of {@code docs/driver-notes.md}.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.rdma.srq.verbs.conformance.VerbsTarget#targets")
class SrqConformanceTest extends ConformanceBase {

    SrqConformanceTest(VerbsTarget target) {
        super(target);
    }

    @Test
    @DisplayName("ibv_create_srq(3): \"the actual values … may be greater than or equal to the requested\" — max_wr and max_sge ≥ requested (driver note 5)")
    void createReturnsAtLeastTheRequestedSizes() throws VerbsException {
        assumeSrq();
        ProtectionDomain pd = ctx.allocPd();
        int[][] requests = {{1, 1}, {10, 1}, {100, Math.min(2, dev.maxSrqSge())}, {1024, 1}, {1000, Math.min(4, dev.maxSrqSge())}};
        for (int[] r : requests) {
            SharedReceiveQueue srq = srq(pd, r[0], r[1], 0);
            assertTrue(srq.maxWr() >= r[0], "max_wr " + srq.maxWr() + " < requested " + r[0]);
            assertTrue(srq.maxSge() >= r[1], "max_sge " + srq.maxSge() + " < requested " + r[1]);
            assertTrue(srq.maxWr() <= Math.max(dev.maxSrqWr(), 2 * r[0] + 1), "max_wr " + srq.maxWr() + " is beyond reason");
            srq.close();
        }
    }

    @Test
    @DisplayName("driver note 5: rxe rounds max_wr up to 2^n − 1 (1 → 1, 10 → 15, 1024 → 2047)")
    void rxeRoundsMaxWrToPowerOfTwoMinusOne() throws VerbsException {
        assumeSrq();
        assumeDriver(Driver.RXE, "rxe_queue_init sizes the ring to roundup_pow_of_two(max_wr + 1)");
        ProtectionDomain pd = ctx.allocPd();
        assertEquals(1, srq(pd, 1, 1, 0).maxWr());
        assertEquals(15, srq(pd, 10, 1, 0).maxWr());
        SharedReceiveQueue srq = srq(pd, 1024, 1, 0);
        assertEquals(2047, srq.maxWr());
        assertEquals(2047, srq.query().maxWr());
    }

    @Test
    @DisplayName("ibv_create_srq(3): max_wr above the device's max_srq_wr → EINVAL")
    void createAboveMaxSrqWrIsEinval() throws VerbsException {
        assumeSrq();
        ProtectionDomain pd = ctx.allocPd();
        assertErrno(Errno.EINVAL, () -> srq(pd, dev.maxSrqWr() + 1, 1, 0));
    }

    @Test
    @DisplayName("ibv_create_srq(3): max_sge above the device's max_srq_sge → EINVAL")
    void createAboveMaxSrqSgeIsEinval() throws VerbsException {
        assumeSrq();
        ProtectionDomain pd = ctx.allocPd();
        assertErrno(Errno.EINVAL, () -> srq(pd, 16, dev.maxSrqSge() + 1, 0));
    }

    @Test
    @DisplayName("ibv_create_srq(3) on a device without SRQ (EFA, max_srq 0) → EOPNOTSUPP")
    void createOnADeviceWithoutSrqIsEopnotsupp() throws VerbsException {
        assumeTrue(dev.maxSrq() == 0, target + " has SRQs");
        ProtectionDomain pd = ctx.allocPd();
        assertErrno(Errno.EOPNOTSUPP, () -> srq(pd, 16, 1, 0));
    }

    @Test
    @DisplayName("ibv_query_srq(3) right after create reads the sizes create returned")
    void queryAfterCreateReadsWhatCreateReturned() throws VerbsException {
        assumeSrq();
        SharedReceiveQueue srq = srq(ctx.allocPd(), 100, 1, 0);
        int maxWr = srq.maxWr();
        int maxSge = srq.maxSge();
        SrqAttributes q = srq.query();
        assertEquals(maxWr, q.maxWr());
        assertEquals(maxSge, q.maxSge());
        assertEquals(0, q.srqLimit());
        assertEquals(0, srq.srqLimit());
        assertEquals(0, srq.attachedQueuePairs());
    }

    @Test
    @DisplayName("driver note 4: a create-time srq_limit is honoured by rxe and ignored by mlx4/mlx5 (reads 0)")
    void createTimeLimitHonouredOrIgnoredPerDriver() throws VerbsException {
        assumeSrq();
        assumeTrue(driver == Driver.RXE || driver == Driver.MLX,
                "ibv_create_srq(3) calls the create-time limit irrelevant; the known drivers are rxe (honours) and mlx (ignores)");
        SharedReceiveQueue srq = srq(ctx.allocPd(), 64, 1, 5);
        assertEquals(driver == Driver.RXE ? 5 : 0, srq.query().srqLimit());
    }

    @Test
    @DisplayName("ibv_query_srq(3) NOTES: srq_limit is read live — an armed limit reads back, max_wr stays cached")
    void armedLimitReadsBack() throws VerbsException {
        assumeSrq();
        SharedReceiveQueue srq = srq(ctx.allocPd(), 64, 1, 0);
        int maxWr = srq.maxWr();
        srq.armLimit(7);
        assertEquals(7, srq.srqLimit());
        assertEquals(7, srq.query().srqLimit());
        assertEquals(maxWr, srq.maxWr());
        srq.armLimit(0);
        assertEquals(0, srq.srqLimit());
    }

    @Test
    @DisplayName("ibv_modify_srq(3) IBV_SRQ_MAX_WR with IBV_DEVICE_SRQ_RESIZE grows max_wr to ≥ the request (rxe: 4096 → 8191, driver note 5)")
    void resizeGrowsWithSrqResize() throws VerbsException {
        assumeSrq();
        assumeTrue(canResize(), target + " has no IBV_DEVICE_SRQ_RESIZE");
        SharedReceiveQueue srq = srq(ctx.allocPd(), 1024, 1, 0);
        int sge = srq.maxSge();
        srq.resize(4096);
        assertTrue(srq.maxWr() >= 4096, "max_wr " + srq.maxWr());
        assertEquals(srq.maxWr(), srq.query().maxWr(), "the cached max_wr is refreshed by the resize");
        assertEquals(sge, srq.maxSge());
        if (driver == Driver.RXE) {
            assertEquals(8191, srq.maxWr());
        }
    }

    @Test
    @DisplayName("driver note 1: without IBV_DEVICE_SRQ_RESIZE (mlx4/mlx5) IBV_SRQ_MAX_WR → EINVAL and max_wr is unchanged")
    void resizeWithoutSrqResizeIsEinval() throws VerbsException {
        assumeSrq();
        assumeFalse(canResize(), target + " has IBV_DEVICE_SRQ_RESIZE");
        SharedReceiveQueue srq = srq(ctx.allocPd(), 64, 1, 0);
        int maxWr = srq.maxWr();
        assertErrno(Errno.EINVAL, () -> srq.resize(maxWr * 2));
        assertEquals(maxWr, srq.query().maxWr());
    }

    @Test
    @DisplayName("driver note 2: resize above max_srq_wr → EINVAL, nothing modified")
    void resizeAboveDeviceMaxIsEinval() throws VerbsException {
        assumeSrq();
        SharedReceiveQueue srq = srq(ctx.allocPd(), 64, 1, 0);
        SrqAttributes before = srq.query();
        assertErrno(Errno.EINVAL, () -> srq.resize(dev.maxSrqWr() + 1));
        assertEquals(before, srq.query());
    }

    @Test
    @DisplayName("driver note 2: resize to max_wr 0 → EINVAL, nothing modified")
    void resizeToZeroIsEinval() throws VerbsException {
        assumeSrq();
        SharedReceiveQueue srq = srq(ctx.allocPd(), 64, 1, 0);
        SrqAttributes before = srq.query();
        assertErrno(Errno.EINVAL, () -> srq.resize(0));
        assertEquals(before, srq.query());
    }

    @Test
    @DisplayName("driver note 2: with srq_limit armed, a resize below the limit → EINVAL, nothing modified")
    void resizeBelowArmedLimitIsEinval() throws VerbsException {
        assumeSrq();
        SharedReceiveQueue srq = srq(ctx.allocPd(), 200, 1, 0);
        srq.armLimit(100);
        SrqAttributes before = srq.query();
        assertErrno(Errno.EINVAL, () -> srq.resize(50));
        assertEquals(before, srq.query());
        assertEquals(100, srq.srqLimit());
    }

    @Test
    @DisplayName("driver note 2: srq_limit above max_srq_wr → EINVAL")
    void limitAboveDeviceMaxIsEinval() throws VerbsException {
        assumeSrq();
        SharedReceiveQueue srq = srq(ctx.allocPd(), 64, 1, 0);
        assertErrno(Errno.EINVAL, () -> srq.armLimit(dev.maxSrqWr() + 1));
        assertEquals(0, srq.srqLimit());
    }

    @Test
    @DisplayName("ibv_modify_srq(3): srq_limit above the SRQ's max_wr → EINVAL, the limit stays unarmed")
    void limitAboveMaxWrIsEinval() throws VerbsException {
        assumeSrq();
        SharedReceiveQueue srq = srq(ctx.allocPd(), 64, 1, 0);
        assertErrno(Errno.EINVAL, () -> srq.armLimit(srq.maxWr() + 1));
        assertEquals(0, srq.srqLimit());
    }

    @Test
    @DisplayName("driver note 1: srq_limit = max_wr → EINVAL on mlx5 (limit ≥ max_wr), accepted by rxe (only limit > max_wr fails)")
    void limitEqualToMaxWrPerDriver() throws VerbsException {
        assumeSrq();
        assumeTrue(driver == Driver.RXE || driver == Driver.MLX, "only rxe and mlx5 are known here");
        SharedReceiveQueue srq = srq(ctx.allocPd(), 64, 1, 0);
        if (driver == Driver.MLX) {
            assertErrno(Errno.EINVAL, () -> srq.armLimit(srq.maxWr()));
            assertEquals(0, srq.srqLimit());
        } else {
            srq.armLimit(srq.maxWr());
            assertEquals(srq.maxWr(), srq.srqLimit());
        }
    }

    @Test
    @DisplayName("ibv_modify_srq(3) NOTES: \"if any of the modify attributes is invalid, none of the attributes will be modified\"")
    void oneInvalidAttributeModifiesNothing() throws VerbsException {
        assumeSrq();
        SharedReceiveQueue srq = srq(ctx.allocPd(), 64, 1, 0);
        SrqAttributes before = srq.query();
        // a valid (or at least harmless) max_wr together with an invalid limit
        assertErrno(Errno.EINVAL, () -> srq.modify(new SrqAttributes(before.maxWr() * 2, 1, dev.maxSrqWr() + 1),
                MODIFY_MAX_WR | MODIFY_LIMIT));
        assertEquals(before, srq.query());
        assertEquals(before.maxWr(), srq.maxWr());
        // a valid limit together with an invalid max_wr
        assertErrno(Errno.EINVAL, () -> srq.modify(new SrqAttributes(dev.maxSrqWr() + 1, 1, 5),
                MODIFY_MAX_WR | MODIFY_LIMIT));
        assertEquals(before, srq.query());
        assertEquals(0, srq.srqLimit());
    }

    @Test
    @DisplayName("driver note 5: max_sge cannot be modified (ibv_modify_srq(3) takes only IBV_SRQ_MAX_WR and IBV_SRQ_LIMIT)")
    void maxSgeCannotBeModified() throws VerbsException {
        assumeSrq();
        SharedReceiveQueue srq = srq(ctx.allocPd(), 64, 1, 0);
        int sge = srq.maxSge();
        srq.modify(new SrqAttributes(0, sge + 4, 3), MODIFY_LIMIT);
        assertEquals(sge, srq.query().maxSge());
        assertEquals(3, srq.srqLimit());
        if (canResize()) {
            srq.modify(new SrqAttributes(500, sge + 4, 0), MODIFY_MAX_WR);
            assertEquals(sge, srq.query().maxSge());
            assertEquals(sge, srq.maxSge());
        }
        assertErrno(Errno.EINVAL, () -> srq.modify(new SrqAttributes(0, sge + 4, 0), 1 << 2));
        assertErrno(Errno.EINVAL, () -> srq.modify(new SrqAttributes(0, sge + 4, 0), 0));
        assertEquals(sge, srq.query().maxSge());
    }

    @Test
    @DisplayName("ibv_post_srq_recv: posting beyond max_wr → ENOMEM, bad_wr is the first WR not posted, those before it are posted")
    void postingBeyondMaxWrIsEnomem() throws VerbsException {
        assumeSrq();
        ProtectionDomain pd = ctx.allocPd();
        SharedReceiveQueue srq = srq(pd, 16, 1, 0);
        int maxWr = srq.maxWr();
        MemoryRegion mr = pd.allocateRegistered((maxWr + 2) * 64L, EnumSet.of(AccessFlag.LOCAL_WRITE));
        ReceiveWorkRequests chain = wrs(maxWr + 2);
        for (int i = 0; i < maxWr + 2; i++) {
            chain.set(i, i, mr.address() + i * 64L, 64, mr.lkey());
        }
        PostReceiveException e = assertThrows(PostReceiveException.class, () -> srq.postReceive(chain, maxWr + 1));
        assertEquals(Errno.ENOMEM.value(), e.errno(), e.getMessage());
        assertEquals(maxWr, e.failedIndex());
        assertEquals(maxWr, chain.badWrIndex());
        PostReceiveException again = assertThrows(PostReceiveException.class, () -> srq.postReceive(chain, 1));
        assertEquals(Errno.ENOMEM.value(), again.errno());
        assertEquals(0, again.failedIndex());
    }

    @Test
    @DisplayName("driver note 7: destroying an SRQ with a QP attached → EBUSY (rxe would let it through); after the QP it succeeds")
    void destroyWithAttachedQpIsEbusy() throws VerbsException {
        assumeSrq();
        assumeTrue(driver != Driver.EFA, "EFA has no RC QPs");
        ProtectionDomain pd = ctx.allocPd();
        SharedReceiveQueue srq = srq(pd, 64, 1, 0);
        CompletionQueue cq = ctx.createCq(64, null);
        QueuePair qp = pd.createQp(QpInitAttributes.rcOnSrq(cq, srq, 16));
        assertEquals(1, srq.attachedQueuePairs());
        VerbsException e = assertErrno(Errno.EBUSY, srq::close);
        assertEquals("ibv_destroy_srq", e.operation());
        assertFalse(srq.isClosed());
        assertEquals(srq.maxWr(), srq.query().maxWr(), "the SRQ still works after the refused destroy");
        assertErrno(Errno.EBUSY, cq::close);
        qp.close();
        assertEquals(0, srq.attachedQueuePairs());
        srq.close();
        assertTrue(srq.isClosed());
        cq.close();
        assertThrows(IllegalStateException.class, srq::query);
    }
}
