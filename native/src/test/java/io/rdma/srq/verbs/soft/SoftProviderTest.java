package io.rdma.srq.verbs.soft;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.AsyncEventType;
import io.rdma.srq.api.DeviceAttributes;
import io.rdma.srq.api.DeviceCapability;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.PortAttributes;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.api.WcStatus;
import io.rdma.srq.verbs.AsyncEvent;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.DeviceInfo;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.RcEndpoint;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.WorkCompletionArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What is particular to the soft device: its device list, the profiles' fixed attributes, the
 * fabric across devices, the live-object count, and concurrent post/send/poll. What every device
 * must do is in {@code io.rdma.srq.verbs.conformance}.
 */
class SoftProviderTest {
    private final SoftProvider provider = new SoftProvider();
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private int liveBefore;

    @BeforeEach
    void countLive() {
        liveBefore = SoftProvider.liveObjects();
    }

    @AfterEach
    void closeAndCheckLeaks() throws Exception {
        for (AutoCloseable c : toClose.reversed()) {
            c.close();
        }
        assertEquals(liveBefore, SoftProvider.liveObjects(), "soft objects leaked");
    }

    private Context open(SoftProfile profile) {
        Context c = provider.open(profile);
        toClose.add(c);
        return c;
    }

    private <T extends AutoCloseable> T keep(T c) {
        toClose.add(c);
        return c;
    }

    @Test
    void listsOneDevicePerProfileRxeFirst() throws VerbsException {
        assertEquals(List.of("soft_rxe0", "soft_mlx5_0", "soft_efa0"),
                provider.devices().stream().map(DeviceInfo::name).toList());
        provider.devices().forEach(d -> assertEquals(Verbs.SOFT, d.provider()));
        assertEquals("soft_rxe0", SoftProvider.defaultDeviceName());
        assertInstanceOf(SoftProvider.class, Verbs.provider(Verbs.SOFT), "registered with ServiceLoader");
        assertTrue(provider.unavailableReason().isEmpty());
        assertEquals(SoftProfile.MLX5, SoftProfile.of("mlx5"));
        assertEquals(SoftProfile.EFA, SoftProfile.of("soft_efa0"));
        assertThrows(IllegalArgumentException.class, () -> SoftProfile.of("mlx4"));
    }

    @Test
    void openingAnUnknownDeviceIsEnodevListingTheSoftDevices() {
        VerbsException e = assertThrows(VerbsException.class, () -> provider.open("rxe0"));
        assertEquals(Errno.ENODEV.value(), e.errno());
        assertTrue(e.getMessage().contains("soft_rxe0, soft_mlx5_0, soft_efa0"), e.getMessage());
    }

    @Test
    void softRxe0HasTheAttributesOfRxe0InTheLab() throws VerbsException {
        Context ctx = open(SoftProfile.RXE);
        DeviceAttributes a = ctx.queryDevice();
        // it-tests/lab/devinfo-rxe0.txt
        assertEquals(0xffffffL, a.vendorId());
        assertEquals(0, a.vendorPartId());
        assertEquals(-1L, a.maxMrSize());
        assertEquals(0xfffff000L, a.pageSizeCap());
        assertEquals(1048560, a.maxQp());
        assertEquals(1048576, a.maxQpWr());
        assertEquals(0x01223c76L, a.deviceCapFlags());
        assertEquals(EnumSet.of(DeviceCapability.BAD_PKEY_CNTR, DeviceCapability.BAD_QKEY_CNTR,
                DeviceCapability.AUTO_PATH_MIG, DeviceCapability.CHANGE_PHY_PORT, DeviceCapability.UD_AV_PORT_ENFORCE,
                DeviceCapability.PORT_ACTIVE_EVENT, DeviceCapability.SYS_IMAGE_GUID, DeviceCapability.RC_RNR_NAK_GEN,
                DeviceCapability.SRQ_RESIZE, DeviceCapability.MEM_WINDOW, DeviceCapability.MEM_MGT_EXTENSIONS,
                DeviceCapability.MEM_WINDOW_TYPE_2B), a.capabilities());
        assertEquals(32, a.maxSge());
        assertEquals(32, a.maxSgeRd());
        assertEquals(1048576, a.maxCq());
        assertEquals(32767, a.maxCqe());
        assertEquals(524287, a.maxMr());
        assertEquals(1048576, a.maxPd());
        assertEquals(128, a.maxQpRdAtom());
        assertEquals(258048, a.maxResRdAtom());
        assertEquals(128, a.maxQpInitRdAtom());
        assertEquals(1, a.atomicCap());
        assertEquals(524287, a.maxMw());
        assertEquals(8192, a.maxMcastGrp());
        assertEquals(56, a.maxMcastQpAttach());
        assertEquals(458752, a.maxTotalMcastQpAttach());
        assertEquals(32767, a.maxAh());
        assertEquals(917503, a.maxSrq());
        assertEquals(1048576, a.maxSrqWr());
        assertEquals(27, a.maxSrqSge());
        assertEquals(64, a.maxPkeys());
        assertEquals(15, a.localCaAckDelay());
        assertEquals(1, a.physPortCnt());
        PortAttributes p = ctx.queryPort(1);
        assertEquals(PortAttributes.STATE_ACTIVE, p.state());
        assertEquals(5, p.maxMtu());
        assertEquals(3, p.activeMtu());
        assertEquals(1024, p.gidTblLen());
        assertEquals(0x00010000L, p.portCapFlags());
        assertEquals(0x800000L, p.maxMsgSz());
        assertEquals(1, p.pkeyTblLen());
        assertEquals(2, p.linkLayer(), "Ethernet");
        assertEquals(1, p.activeWidth());
        assertEquals(5, p.physState());
        assertEquals(Optional.empty(), ctx.queryEfaDevice());
    }

    @Test
    void profilesDifferWhereTheDriversDo() throws VerbsException {
        ProtectionDomain rxe = open(SoftProfile.RXE).allocPd();
        ProtectionDomain mlx5 = open(SoftProfile.MLX5).allocPd();
        SharedReceiveQueue r = rxe.createSrq(new SrqAttributes(1024, 2, 9));
        SharedReceiveQueue m = mlx5.createSrq(new SrqAttributes(1024, 2, 9));
        assertEquals(new SrqAttributes(2047, 2, 9), r.query());
        assertEquals(new SrqAttributes(2047, 3, 0), m.query(), "mlx5: 2 SGEs round to the 3 a 64-byte WQE holds");
        assertEquals(1, rxe.createSrq(new SrqAttributes(16, 0, 0)).maxSge(), "rxe raises max_sge 0 to 1");
        assertEquals(7, mlx5.createSrq(new SrqAttributes(16, 4, 0)).maxSge());
        assertTrue(SoftProfile.RXE.canResizeSrq() && !SoftProfile.MLX5.canResizeSrq());
        assertTrue(SoftProfile.MLX5.hasXrc() && !SoftProfile.RXE.hasXrc() && !SoftProfile.EFA.hasXrc());
        assertFalse(SoftProfile.EFA.hasSrq());
    }

    @Test
    void resizeBelowTheOutstandingReceivesIsEinval() throws VerbsException {
        ProtectionDomain pd = open(SoftProfile.RXE).allocPd();
        SharedReceiveQueue srq = pd.createSrq(new SrqAttributes(64, 1, 0));
        MemoryRegion mr = pd.allocateRegistered(64 * 64, EnumSet.of(AccessFlag.LOCAL_WRITE));
        ReceiveWorkRequests wrs = keep(new ReceiveWorkRequests(40));
        for (int i = 0; i < 40; i++) {
            wrs.set(i, i, mr.address() + i * 64L, 64, mr.lkey());
        }
        srq.postReceive(wrs, 40);
        VerbsException e = assertThrows(VerbsException.class, () -> srq.resize(20));
        assertEquals(Errno.EINVAL.value(), e.errno());
        assertEquals(127, srq.maxWr());
        srq.resize(100);
        assertEquals(127, srq.maxWr(), "100 rounds to 127");
        srq.resize(40);
        assertEquals(63, srq.maxWr(), "shrinking is allowed down to the outstanding count");
    }

    @Test
    void efaHasNoRcAndNoSrq() throws VerbsException {
        Context efa = open(SoftProfile.EFA);
        ProtectionDomain pd = efa.allocPd();
        CompletionQueue cq = efa.createCq(16, null);
        VerbsException rc = assertThrows(VerbsException.class,
                () -> pd.createQp(QpInitAttributes.builder(QpInitAttributes.QpType.RC).cq(cq)
                        .maxSendWr(16).maxRecvWr(16).maxRecvSge(1).build()));
        assertEquals(Errno.EOPNOTSUPP.value(), rc.errno());
        QueuePair ud = pd.createQp(QpInitAttributes.builder(QpInitAttributes.QpType.UD).cq(cq)
                .maxSendWr(16).maxRecvWr(16).maxRecvSge(1).build());
        VerbsException connect = assertThrows(VerbsException.class,
                () -> ud.connect(1, 0, ud.localEndpoint(1, 0)));
        assertEquals(Errno.EOPNOTSUPP.value(), connect.errno());
        assertTrue(efa.queryEfaDevice().isPresent());
    }

    @Test
    void liveObjectsCountsEveryObjectUntilClosed() throws VerbsException {
        int before = SoftProvider.liveObjects();
        Context ctx = provider.open(SoftProfile.RXE);
        ProtectionDomain pd = ctx.allocPd();
        pd.createSrq(new SrqAttributes(16, 1, 0));
        ctx.createCq(16, ctx.createCompletionChannel());
        assertEquals(before + 5, SoftProvider.liveObjects());
        ctx.close();
        assertEquals(before, SoftProvider.liveObjects());
    }

    /** Two RC QPs on one SRQ of {@code ctx}, A → B. */
    private record Pair(ProtectionDomain pd, SharedReceiveQueue srq, CompletionQueue cqA, CompletionQueue cqB,
                        QueuePair a, QueuePair b, MemoryRegion mr) {
    }

    private Pair pair(Context ctx, int rnrRetry) throws VerbsException {
        ProtectionDomain pd = ctx.allocPd();
        SharedReceiveQueue srq = pd.createSrq(new SrqAttributes(4096, 1, 0));
        CompletionQueue cqA = ctx.createCq(4096, null);
        CompletionQueue cqB = ctx.createCq(4096, null);
        QueuePair a = pd.createQp(QpInitAttributes.rcOnSrq(cqA, srq, 4));
        QueuePair b = pd.createQp(QpInitAttributes.rcOnSrq(cqB, srq, 4));
        a.connect(1, 0, b.localEndpoint(1, 0), rnrRetry);
        b.connect(1, 0, a.localEndpoint(1, 0));
        MemoryRegion mr = pd.allocateRegistered(1 << 20, EnumSet.of(AccessFlag.LOCAL_WRITE));
        return new Pair(pd, srq, cqA, cqB, a, b, mr);
    }

    private static List<WcStatus> drain(CompletionQueue cq, WorkCompletionArray wcs) throws VerbsException {
        List<WcStatus> out = new ArrayList<>();
        int n;
        while ((n = cq.poll(wcs)) > 0) {
            for (int i = 0; i < n; i++) {
                out.add(wcs.status(i));
            }
        }
        return out;
    }

    @Test
    void connectAndPostSendRules() throws VerbsException {
        Context ctx = open(SoftProfile.RXE);
        Pair p = pair(ctx, 7);
        RcEndpoint ep = p.b().localEndpoint(1, 0);
        assertEquals(16, ep.gid().length);
        assertNotEquals(p.a().qpNum(), p.b().qpNum());
        assertErrno(Errno.EINVAL, () -> p.a().connect(1, 0, ep), "a second connect: the QP is not in RESET");
        assertErrno(Errno.EINVAL, () -> p.a().localEndpoint(1, 1024), "GID index beyond gid_tbl_len");
        assertErrno(Errno.EINVAL, () -> p.a().localEndpoint(2, 0), "port 2");
        QueuePair fresh = p.pd().createQp(QpInitAttributes.rcOnSrq(p.cqA(), p.srq(), 4));
        assertErrno(Errno.EINVAL, () -> fresh.connect(1, 0, ep, 8), "rnr_retry 8");
        assertErrno(Errno.EINVAL, () -> fresh.postSend(1, p.mr(), 0, 8, null), "not connected");
        assertErrno(Errno.EINVAL, () -> p.a().postSend(1, p.mr(), p.mr().length() - 4, 8, null), "outside the MR");
        // four sends wait (RNR, rnr_retry 7) in a send queue of 4: the fifth is ENOMEM
        for (int i = 0; i < 4; i++) {
            p.a().postSend(i, p.mr(), 0, 8, null);
        }
        assertErrno(Errno.ENOMEM, () -> p.a().postSend(4, p.mr(), 0, 8, null), "send queue full");
    }

    private static void assertErrno(Errno expected, org.junit.jupiter.api.function.Executable call, String what) {
        VerbsException e = assertThrows(VerbsException.class, call, what);
        assertEquals(expected.name(), e.errnoName(), what + ": " + e.getMessage());
    }

    @Test
    void waitingSendsEndInRetryExceededWhenThePeerIsDestroyed() throws VerbsException {
        Context ctx = open(SoftProfile.RXE);
        Pair p = pair(ctx, 7);
        WorkCompletionArray wcs = keep(new WorkCompletionArray(16));
        p.a().postSend(1, p.mr(), 0, 8, null);
        p.a().postSend(2, p.mr(), 0, 8, null);
        assertEquals(0, p.cqA().poll(wcs));
        p.b().close();
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            List<WcStatus> got = new ArrayList<>();
            while (got.size() < 2) {
                got.addAll(drain(p.cqA(), wcs));
                Thread.onSpinWait();
            }
            assertEquals(List.of(WcStatus.RETRY_EXC_ERR, WcStatus.WR_FLUSH_ERR), got);
        });
    }

    @Test
    void aWaitingSendWhoseMrIsDeregisteredFailsOnTheRetryAndThePeerSeesNothing() throws VerbsException {
        Context ctx = open(SoftProfile.RXE);
        Pair p = pair(ctx, 7);
        MemoryRegion from = p.pd().allocateRegistered(64, EnumSet.of(AccessFlag.LOCAL_WRITE));
        WorkCompletionArray wcs = keep(new WorkCompletionArray(4));
        p.a().postSend(9, from, 0, 64, null); // no receive posted: the send waits (RNR, rnr_retry 7)
        assertEquals(List.of(), drain(p.cqA(), wcs), "the send must wait for a receive");
        from.close();
        ReceiveWorkRequests wrs = keep(new ReceiveWorkRequests(1));
        wrs.set(0, 5, p.mr().address(), 64, p.mr().lkey());
        p.srq().postReceive(wrs, 1); // the retry runs on this thread (the send lock is free)
        assertEquals(List.of(WcStatus.LOC_QP_OP_ERR), drain(p.cqA(), wcs), "rxe's status for a stale lkey (driver note 20)");
        assertEquals(List.of(), drain(p.cqB(), wcs), "the message never left: the receive was not consumed");
    }

    @Test
    void aReceiveSgeOutsideAnyMrFailsBothSides() throws VerbsException {
        Context ctx = open(SoftProfile.RXE);
        Pair p = pair(ctx, 7);
        ReceiveWorkRequests wrs = keep(new ReceiveWorkRequests(1));
        wrs.set(0, 5, p.mr().address(), 64, p.mr().lkey() ^ 0x7f00);
        p.srq().postReceive(wrs, 1);
        p.a().postSend(1, p.mr(), 0, 8, null);
        WorkCompletionArray wcs = keep(new WorkCompletionArray(4));
        assertEquals(List.of(WcStatus.LOC_QP_OP_ERR), drain(p.cqB(), wcs), "rxe: RESPST_ERR_MALFORMED_WQE");
        assertEquals(List.of(WcStatus.REM_OP_ERR), drain(p.cqA(), wcs));
    }

    @Test
    void theFabricSpansDevicesAndMlx5ReportsSrcQp() throws VerbsException {
        Context rxe = open(SoftProfile.RXE);
        Context mlx5 = open(SoftProfile.MLX5);
        ProtectionDomain pdA = rxe.allocPd();
        ProtectionDomain pdB = mlx5.allocPd();
        SharedReceiveQueue srqA = pdA.createSrq(new SrqAttributes(16, 1, 0));
        SharedReceiveQueue srqB = pdB.createSrq(new SrqAttributes(16, 1, 0));
        CompletionQueue cqA = rxe.createCq(16, null);
        CompletionQueue cqB = mlx5.createCq(16, null);
        QueuePair a = pdA.createQp(QpInitAttributes.rcOnSrq(cqA, srqA, 4));
        QueuePair b = pdB.createQp(QpInitAttributes.rcOnSrq(cqB, srqB, 4));
        a.connect(1, 1, b.localEndpoint(1, 1));
        b.connect(1, 1, a.localEndpoint(1, 1));
        assertFalse(java.util.Arrays.equals(a.localEndpoint(1, 1).gid(), b.localEndpoint(1, 1).gid()),
                "every soft device has its own GIDs");
        MemoryRegion src = pdA.allocateRegistered(4096, EnumSet.of(AccessFlag.LOCAL_WRITE));
        MemoryRegion dst = pdB.allocateRegistered(4096, EnumSet.of(AccessFlag.LOCAL_WRITE));
        src.segment().asSlice(0, 5).copyFrom(java.lang.foreign.MemorySegment.ofArray("hello".getBytes()));
        ReceiveWorkRequests wrs = keep(new ReceiveWorkRequests(1));
        wrs.set(0, 3, dst.address() + 100, 64, dst.lkey());
        srqB.postReceive(wrs, 1);
        a.postSend(9, src, 0, 5, 77);
        WorkCompletionArray wcs = keep(new WorkCompletionArray(4));
        assertEquals(1, cqB.poll(wcs));
        assertEquals(WcStatus.SUCCESS, wcs.status(0));
        assertEquals(3, wcs.wrId(0));
        assertEquals(a.qpNum(), wcs.srcQp(0), "mlx5 reports the sender's QP number");
        assertEquals(77, wcs.immData(0));
        assertArrayEquals("hello".getBytes(), dst.segment().asSlice(100, 5).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        assertEquals(1, cqA.poll(wcs));
        assertEquals(9, wcs.wrId(0));
    }

    @Test
    void softRxe0LeavesSrcQpZeroOnRcAsRxeDoesAndMlx5ReportsTheSender() throws VerbsException {
        assertEquals(0, srcQpOfAnRcReceive(SoftProfile.RXE), "rxe_resp.c sets src_qp only from a DETH (UD)");
        assertTrue(srcQpOfAnRcReceive(SoftProfile.MLX5) != 0, "soft_mlx5_0 reports the sender's QP");
    }

    private int srcQpOfAnRcReceive(SoftProfile profile) throws VerbsException {
        Context ctx = open(profile);
        Pair p = pair(ctx, 7);
        ReceiveWorkRequests wrs = keep(new ReceiveWorkRequests(1));
        wrs.set(0, 1, p.mr().address() + 4096, 64, p.mr().lkey());
        p.srq().postReceive(wrs, 1);
        p.a().postSend(1, p.mr(), 0, 8, null);
        WorkCompletionArray wcs = keep(new WorkCompletionArray(4));
        assertEquals(1, p.cqB().poll(wcs));
        assertEquals(SoftCompletionQueue.FLAG_GRH, wcs.wcFlags(0), "RoCE receives carry a GRH, no immediate here");
        return wcs.srcQp(0) == 0 ? 0 : (wcs.srcQp(0) == p.a().qpNum() ? wcs.srcQp(0) : -1);
    }

    @Test
    void mlx5RaisesLastWqeReachedWhenAnSrqQpGoesToError() throws VerbsException {
        Context ctx = open(SoftProfile.MLX5);
        Pair p = pair(ctx, 0);
        p.a().postSend(1, p.mr(), 0, 8, null);
        Optional<AsyncEvent> e = ctx.getAsyncEvent(Duration.ofSeconds(1));
        assertTrue(e.isPresent());
        assertEquals(AsyncEventType.QP_LAST_WQE_REACHED, e.get().type());
        assertEquals(p.a(), e.get().element());
    }

    @Test
    void anEventOfAClosedObjectHasNoElement() throws VerbsException {
        Context ctx = open(SoftProfile.MLX5);
        Pair p = pair(ctx, 0);
        p.a().postSend(1, p.mr(), 0, 8, null);
        p.a().close();
        AsyncEvent e = ctx.getAsyncEvent(Duration.ofSeconds(1)).orElseThrow();
        assertEquals(AsyncEventType.QP_LAST_WQE_REACHED, e.type());
        assertNull(e.element());
    }

    @Test
    void closingTheContextWakesAWaiterAtOnce() throws Exception {
        Context ctx = provider.open(SoftProfile.RXE);
        CountDownLatch waiting = new CountDownLatch(1);
        AtomicReference<Object> result = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> {
            waiting.countDown();
            try {
                result.set(ctx.getAsyncEvent(Duration.ofMinutes(10)));
            } catch (RuntimeException e) {
                result.set(e);
            }
        });
        waiting.await();
        Thread.sleep(50);
        ctx.close();
        t.join(Duration.ofSeconds(5));
        assertFalse(t.isAlive(), "the waiter still waits after the close");
        assertEquals(Optional.empty(), result.get());
    }

    @Test
    void concurrentPostSendAndPollDeliverEveryMessageOnceInOrderPerSender() throws Exception {
        final int senders = 3;
        final int perSender = 20_000;
        Context ctx = open(SoftProfile.RXE);
        ProtectionDomain pd = ctx.allocPd();
        SharedReceiveQueue srq = pd.createSrq(new SrqAttributes(1024, 1, 0));
        CompletionQueue recvCq = ctx.createCq(32767, null);
        CompletionQueue sendCq = ctx.createCq(32767, null);
        MemoryRegion mr = pd.allocateRegistered(1 << 20, EnumSet.of(AccessFlag.LOCAL_WRITE));
        List<QueuePair> from = new ArrayList<>();
        List<QueuePair> to = new ArrayList<>();
        for (int s = 0; s < senders; s++) {
            QueuePair a = pd.createQp(QpInitAttributes.rcOnSrq(sendCq, srq, 64));
            QueuePair b = pd.createQp(QpInitAttributes.rcOnSrq(recvCq, srq, 64));
            a.connect(1, 0, b.localEndpoint(1, 0));
            b.connect(1, 0, a.localEndpoint(1, 0));
            from.add(a);
            to.add(b);
        }
        int total = senders * perSender;
        // a sender may have at most this many send completions unpolled (the CQ must never overrun)
        java.util.concurrent.Semaphore sendCredits = new java.util.concurrent.Semaphore(16_000);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        // receiver: keeps the SRQ fed (backpressure via ENOMEM) and polls
        int[] nextExpected = new int[senders];
        Thread receiver = Thread.ofPlatform().unstarted(() -> {
            try (ReceiveWorkRequests wrs = new ReceiveWorkRequests(64); WorkCompletionArray wcs = new WorkCompletionArray(64)) {
                long posted = 0;
                int got = 0;
                while (got < total) {
                    for (int i = 0; i < 64; i++) {
                        long id = posted + i;
                        wrs.set(i, id, mr.address() + 65536 + (id % 1024) * 64, 64, mr.lkey());
                    }
                    try {
                        srq.postReceive(wrs, 64);
                        posted += 64;
                    } catch (io.rdma.srq.verbs.PostReceiveException full) {
                        posted += full.failedIndex();
                    }
                    int n = recvCq.poll(wcs);
                    for (int i = 0; i < n; i++) {
                        if (wcs.status(i) != WcStatus.SUCCESS) {
                            throw new AssertionError("receive " + wcs.status(i));
                        }
                        int imm = wcs.immData(i);
                        int sender = imm >>> 24;
                        int seq = imm & 0xFFFFFF;
                        if (seq != nextExpected[sender]) {
                            throw new AssertionError("sender " + sender + ": got " + seq + ", expected " + nextExpected[sender]);
                        }
                        nextExpected[sender]++;
                    }
                    got += n;
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        });
        threads.add(receiver);
        for (int s = 0; s < senders; s++) {
            QueuePair a = from.get(s);
            int sender = s;
            threads.add(Thread.ofPlatform().unstarted(() -> {
                try {
                    for (int i = 0; i < perSender; i++) {
                        sendCredits.acquire();
                        while (true) {
                            try {
                                a.postSend(i, mr, sender * 64L, 64, sender << 24 | i);
                                break;
                            } catch (VerbsException full) {
                                if (!full.is(Errno.ENOMEM)) {
                                    throw full;
                                }
                                Thread.yield();
                            }
                        }
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }));
        }
        // the send CQ is polled by its own thread, concurrently with the sends
        int[] sendCount = new int[1];
        threads.add(Thread.ofPlatform().unstarted(() -> {
            try (WorkCompletionArray wcs = new WorkCompletionArray(64)) {
                while (sendCount[0] < total && failure.get() == null) {
                    int n = sendCq.poll(wcs);
                    for (int i = 0; i < n; i++) {
                        if (wcs.status(i) != WcStatus.SUCCESS) {
                            throw new AssertionError("send " + wcs.status(i));
                        }
                    }
                    sendCount[0] += n;
                    sendCredits.release(n);
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        }));
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join(Duration.ofSeconds(60));
            if (t.isAlive()) {
                fail("a thread is stuck: " + java.util.Arrays.toString(t.getStackTrace()));
            }
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        for (int s = 0; s < senders; s++) {
            assertEquals(perSender, nextExpected[s]);
        }
        assertEquals(total, sendCount[0]);
    }
}
