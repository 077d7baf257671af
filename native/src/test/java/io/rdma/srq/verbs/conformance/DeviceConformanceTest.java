package io.rdma.srq.verbs.conformance;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.DeviceCapability;
import io.rdma.srq.api.EfaCapability;
import io.rdma.srq.api.EfaDeviceAttributes;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.PortAttributes;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.api.WcStatus;
import io.rdma.srq.verbs.CompletionChannel;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.XrcDomain;
import io.rdma.srq.verbs.soft.SoftProvider;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Device, port, CQ, XRC and EFA behaviour, the object lifecycle, and the Java-binding failures (driver note 14) that
 * apply to one device.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.rdma.srq.verbs.conformance.VerbsTarget#targets")
class DeviceConformanceTest extends ConformanceBase {

    DeviceConformanceTest(VerbsTarget target) {
        super(target);
    }

    @Test
    @DisplayName("ibv_query_port(3): port 1 is ACTIVE with a usable GID; ports outside 1..phys_port_cnt → EINVAL")
    void portOneIsActive() throws VerbsException {
        assertTrue(dev.physPortCnt() >= 1);
        PortAttributes port = ctx.queryPort(PORT);
        assertTrue(port.isActive(), "port 1 state " + port.state());
        assertTrue(port.gidTblLen() > target.gidIndex(), "GID index " + target.gidIndex() + " beyond gid_tbl_len");
        assertErrno(Errno.EINVAL, () -> ctx.queryPort(0));
        assertErrno(Errno.EINVAL, () -> ctx.queryPort(dev.physPortCnt() + 1));
        assertEquals(target.device(), ctx.deviceName());
        assertEquals(target.provider(), ctx.providerName());
    }

    @Test
    @DisplayName("ibv_create_cq(3): cqe 0 or above max_cqe → EINVAL; the actual cqe is ≥ the request")
    void cqSizes() throws VerbsException {
        assertErrno(Errno.EINVAL, () -> ctx.createCq(dev.maxCqe() + 1, null));
        CompletionQueue cq = ctx.createCq(100, null);
        assertTrue(cq.cqe() >= 100, "cqe " + cq.cqe());
        if (target.isSoft() || driver == Driver.RXE) {
            assertErrno(Errno.EINVAL, () -> ctx.createCq(0, null));
        }
    }

    @Test
    @DisplayName("efadv_query_device(3) on a device that is not EFA → EOPNOTSUPP, seen as empty (driver note 11)")
    void efadvOnNonEfaIsEmpty() throws VerbsException {
        assumeTrue(driver != Driver.EFA, target + " is EFA");
        assertEquals(Optional.empty(), ctx.queryEfaDevice());
    }

    @Test
    @DisplayName("efadv_query_device(3) on EFA: attributes present, every device_caps bit decoded (named or kept as unknown)")
    void efadvOnEfaDecodesEveryCapability() throws VerbsException {
        assumeDriver(Driver.EFA, "efadv needs an EFA");
        EfaDeviceAttributes efa = ctx.queryEfaDevice().orElseThrow();
        long named = 0;
        for (EfaCapability c : efa.capabilities()) {
            named |= c.mask();
        }
        assertEquals(efa.deviceCaps(), named | efa.unknownCapabilityBits(), "every bit is named or reported unknown");
        assertTrue(efa.maxSqWr() > 0 && efa.maxRqWr() > 0);
        if (target.isSoft()) {
            assertEquals(EnumSet.allOf(EfaCapability.class), efa.capabilities(),
                    "soft_efa0 sets every capability, including those rdma-core 44's header does not name");
            assertEquals(0, efa.unknownCapabilityBits());
        }
    }

    @Test
    @DisplayName("driver note 11: an EFA QP with an SRQ → EINVAL (EFA has no SRQ)")
    void efaQpWithSrqIsEinval() throws VerbsException {
        assumeDriver(Driver.EFA, "the rule is EFA's");
        assumeTrue(target.isSoft(), "needs an SRQ from another device, which only the soft fabric offers in one JVM");
        try (Context other = new SoftProvider().open(SoftProvider.defaultDeviceName())) {
            SharedReceiveQueue foreign = other.allocPd().createSrq(new SrqAttributes(16, 1, 0));
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(16, null);
            assertErrno(Errno.EINVAL, () -> pd.createQp(QpInitAttributes.builder(QpInitAttributes.QpType.UD).cq(cq).srq(foreign)
                    .maxSendWr(16).build()));
        }
    }

    @Test
    @DisplayName("XRC: ibv_open_xrcd, ibv_create_srq_ex(IBV_SRQT_XRC), ibv_query_srq, ibv_get_srq_num, destroy")
    void xrcSrqLifecycle() throws VerbsException {
        assumeTrue(dev.has(DeviceCapability.XRC), target + " has no IBV_DEVICE_XRC: XRC SRQs do not apply");
        XrcDomain xrcd = ctx.openXrcd();
        ProtectionDomain pd = ctx.allocPd();
        CompletionQueue cq = ctx.createCq(64, null);
        SharedReceiveQueue xsrq = pd.createXrcSrq(xrcd, cq, new SrqAttributes(100, 1, 0));
        assertTrue(xsrq.maxWr() >= 100);
        assertTrue(xsrq.maxSge() >= 1);
        assertEquals(xsrq.maxWr(), xsrq.query().maxWr());
        int num = xsrq.srqNum();
        assertTrue(num >= 0 && num <= 0xFFFFFF, "srq_num " + num);
        assertErrno(Errno.EBUSY, xrcd::close);
        assertErrno(Errno.EBUSY, cq::close);
        xsrq.close();
        xrcd.close();
        cq.close();
    }

    @Test
    @DisplayName("ibv_open_xrcd(3) without IBV_DEVICE_XRC (rxe, EFA) → EOPNOTSUPP")
    void openXrcdWithoutXrcIsEopnotsupp() {
        assumeFalse(dev.has(DeviceCapability.XRC), target + " has XRC");
        assertErrno(Errno.EOPNOTSUPP, ctx::openXrcd);
    }

    @Test
    @DisplayName("ibv_get_srq_num(3) on a basic (not XRC) SRQ → EOPNOTSUPP")
    void srqNumOfBasicSrqIsEopnotsupp() throws VerbsException {
        assumeSrq();
        SharedReceiveQueue srq = ctx.allocPd().createSrq(new SrqAttributes(16, 1, 0));
        assertErrno(Errno.EOPNOTSUPP, srq::srqNum);
    }

    @Test
    @DisplayName("lifecycle: close is idempotent, use after close → IllegalStateException, closing the context closes every child first")
    void lifecycle() throws VerbsException {
        ProtectionDomain pd = ctx.allocPd();
        CompletionChannel channel = ctx.createCompletionChannel();
        CompletionQueue cq = ctx.createCq(16, channel);
        MemoryRegion mr = pd.allocateRegistered(4096, EnumSet.of(AccessFlag.LOCAL_WRITE));
        assertErrno(Errno.EBUSY, channel::close);
        mr.close();
        mr.close();
        assertTrue(mr.isClosed());
        SharedReceiveQueue srq = dev.maxSrq() > 0 ? pd.createSrq(new SrqAttributes(16, 1, 0)) : null;
        QueuePair qp = srq != null && driver != Driver.EFA ? pd.createQp(QpInitAttributes.rcOnSrq(cq, srq, 8)) : null;
        ctx.close();
        assertTrue(pd.isClosed() && cq.isClosed() && channel.isClosed());
        assertTrue(srq == null || srq.isClosed());
        assertTrue(qp == null || qp.isClosed());
        assertThrows(IllegalStateException.class, () -> cq.poll(wcs(1)));
        assertThrows(IllegalStateException.class, () -> ctx.allocPd());
        if (srq != null) {
            assertThrows(IllegalStateException.class, srq::maxWr);
        }
        ctx.close();
    }

    @Test
    @DisplayName("ibv_reg_mr(3): REMOTE_WRITE without LOCAL_WRITE → EINVAL; a heap segment cannot be registered")
    void registrationRules() throws VerbsException {
        ProtectionDomain pd = ctx.allocPd();
        assertErrno(Errno.EINVAL, () -> pd.allocateRegistered(4096, EnumSet.of(AccessFlag.REMOTE_WRITE)));
        assertErrno(Errno.EINVAL, () -> pd.registerMemory(MemorySegment.ofArray(new byte[64]),
                EnumSet.of(AccessFlag.LOCAL_WRITE)));
        MemoryRegion mr = pd.allocateRegistered(10_000, EnumSet.of(AccessFlag.LOCAL_WRITE));
        assertEquals(10_000, mr.length());
        assertEquals(0, mr.address() % 4096, "allocateRegistered is page-aligned");
    }

    @Test
    @DisplayName("driver note 14: registered memory stays alive while registered — the MR, not the caller, keeps the GC away")
    void registeredMemoryIsNotCollected() throws Exception {
        assumeRcOnSrq();
        Link l = new Link(64, 64, 7);
        MemoryRegion mr = registerUnreferenced(l.pd);
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(10);
        }
        ReceiveWorkRequests chain = wrs(1);
        chain.set(0, 500, mr.address(), 128, mr.lkey());
        l.srq.postReceive(chain, 1);
        l.send(1, 0, payload(100, 8), null);
        Wc recv = poll(l.cqB, 1).getFirst();
        assertEquals(WcStatus.SUCCESS, recv.status());
        assertEquals(500, recv.wrId());
        assertArrayEquals(payload(100, 8), mr.segment().asSlice(0, 100).toArray(ValueLayout.JAVA_BYTE));
    }

    private static MemoryRegion registerUnreferenced(ProtectionDomain pd) throws VerbsException {
        // an automatic arena: only the MR keeps the segment reachable after this returns
        return pd.registerMemory(Arena.ofAuto().allocate(4096, 4096), EnumSet.of(AccessFlag.LOCAL_WRITE));
    }

    @Test
    @DisplayName("driver note 14: receives posted but never consumed pin nothing — the SRQ and its buffers close with them outstanding")
    void unconsumedReceivesDoNotPin() throws VerbsException {
        assumeSrq();
        ProtectionDomain pd = ctx.allocPd();
        SharedReceiveQueue srq = pd.createSrq(new SrqAttributes(256, 1, 0));
        MemoryRegion mr = pd.allocateRegistered(256 * 64, EnumSet.of(AccessFlag.LOCAL_WRITE));
        ReceiveWorkRequests chain = wrs(200);
        for (int i = 0; i < 200; i++) {
            chain.set(i, i, mr.address() + i * 64L, 64, mr.lkey());
        }
        srq.postReceive(chain, 200);
        srq.close();
        mr.close();
        pd.close();
        assertTrue(srq.isClosed() && mr.isClosed() && pd.isClosed());
    }

    @Test
    @DisplayName("driver note 14: no wait without a timeout — getAsyncEvent and getCqEvent return empty within their timeouts")
    void waitsAreBounded() throws VerbsException {
        CompletionChannel channel = ctx.createCompletionChannel();
        CompletionQueue cq = ctx.createCq(16, channel);
        cq.requestNotify(false);
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            assertTrue(ctx.getAsyncEvent(Duration.ofMillis(100)).isEmpty());
            assertTrue(ctx.getAsyncEvent(Duration.ZERO).isEmpty());
            assertTrue(channel.getCqEvent(Duration.ofMillis(100)).isEmpty());
            assertTrue(channel.getCqEvent(Duration.ZERO).isEmpty());
        });
    }

    @Test
    @DisplayName("VerbsProvider: the device is listed by its provider and opens twice independently")
    void deviceListedAndOpensTwice() throws VerbsException {
        assertTrue(Verbs.provider(target.provider()).devices().stream().anyMatch(d -> d.name().equals(target.device())));
        try (Context second = target.open().open(target.device())) {
            assertEquals(dev, second.queryDevice());
        }
    }
}
