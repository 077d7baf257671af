package io.rdma.srq.verbs.conformance;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.AsyncEventType;
import io.rdma.srq.api.DeviceAttributes;
import io.rdma.srq.api.DeviceCapability;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.api.WcStatus;
import io.rdma.srq.verbs.AsyncEvent;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.ConnectionParameters;
import io.rdma.srq.verbs.CompletionChannel;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.WorkCompletionArray;
import io.rdma.srq.verbs.soft.SoftProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.function.Executable;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What every conformance class shares: one open context per test on the {@link VerbsTarget}, a
 * {@link Link} of two RC QPs on one SRQ connected to each other, bounded polling helpers, the
 * driver-identity expectations where drivers legitimately differ, and the leak check of the soft
 * device after each test.
 *
 * <p>Expectations are decided by capabilities ({@link DeviceAttributes#has}) wherever a capability
 * bit exists; where drivers differ without one (create-time srq_limit, the receive status of a too
 * long SEND, limit = max_wr), by the driver's identity from vendor_id ({@link Driver}), so the same
 * test holds on soft_rxe0 and rxe0, on soft_mlx5_0 and a ConnectX.
 */
abstract class ConformanceBase {
    /** How long a test waits for something a real device does asynchronously. */
    static final Duration PATIENCE = Duration.ofSeconds(10);
    /** How long a test watches for something that must not happen. */
    static final Duration QUIET = Duration.ofMillis(200);
    static final int PORT = 1;

    final VerbsTarget target;
    Context ctx;
    DeviceAttributes dev;
    Driver driver;
    private int liveBefore;
    private final Deque<AutoCloseable> natives = new ArrayDeque<>();

    /** The driver, from vendor_id, for behaviour that differs without a capability bit. */
    enum Driver {
        /** Soft-RoCE (rdma_rxe, vendor_id 0xffffff) and soft_rxe0. */
        RXE,
        /** Mellanox/NVIDIA mlx4/mlx5 (vendor_id 0x02c9) and soft_mlx5_0. */
        MLX,
        /** Amazon EFA (vendor_id 0x1d0f) and soft_efa0. */
        EFA,
        /** The fabric provider: libfabric's MSG endpoints (tcp), which have no RNR NAK and no transport retries. */
        LIBFABRIC,
        /** Anything else: driver-specific expectations are skipped. */
        OTHER;

        static Driver of(DeviceAttributes a) {
            if (a.vendorId() == 0xffffffL) {
                return RXE;
            }
            if (a.vendorId() == 0x02c9L) {
                return MLX;
            }
            if (a.vendorId() == 0x1d0fL) {
                return EFA;
            }
            return OTHER;
        }
    }

    ConformanceBase(VerbsTarget target) {
        this.target = target;
    }

    @BeforeEach
    void openDevice() throws VerbsException {
        liveBefore = SoftProvider.liveObjects();
        ctx = target.open().open(target.device());
        dev = ctx.queryDevice();
        driver = io.rdma.srq.verbs.fabric.FabricProvider.NAME.equals(ctx.providerName()) ? Driver.LIBFABRIC
                : Driver.of(dev);
    }

    @AfterEach
    void closeDeviceAndCheckLeaks() throws Exception {
        Exception first = null;
        try {
            ctx.close();
        } catch (Exception e) {
            first = e;
        }
        while (!natives.isEmpty()) {
            natives.pop().close();
        }
        if (first != null) {
            throw first;
        }
        if (target.isSoft()) {
            assertEquals(liveBefore, SoftProvider.liveObjects(),
                    "soft objects leaked: every object of the test must be closed with its context");
        }
    }

    // ---- assumptions -------------------------------------------------------------------------

    void assumeSrq() {
        assumeTrue(dev.maxSrq() > 0, target + " has no SRQ (max_srq 0): SRQ behaviour does not apply");
    }

    void assumeRcOnSrq() {
        assumeSrq();
        assumeTrue(driver != Driver.EFA, target + " is EFA: no RC QPs");
    }

    void assumeDriver(Driver expected, String why) {
        assumeTrue(driver == expected, target + " is not a " + expected + " device (" + why + ")");
    }

    /**
     * Skips a test of the RC transport's own retries (RNR NAK, retry_cnt, ACK timeout): libfabric's
     * tcp has none — a sender waits while the SRQ is empty (back-pressure, driver note 27) and TCP
     * retransmits by itself.
     */
    void assumeRcTransportRetries() {
        assumeTrue(driver != Driver.LIBFABRIC, target + " has no RNR NAK or transport retry counts (TCP)");
    }

    boolean canResize() {
        return dev.has(DeviceCapability.SRQ_RESIZE);
    }

    // ---- errno assertions --------------------------------------------------------------------

    static VerbsException assertErrno(Errno expected, Executable call) {
        VerbsException e = assertThrows(VerbsException.class, call);
        assertEquals(expected.name(), e.errnoName(), () -> "expected " + expected + ", got: " + e.getMessage());
        return e;
    }

    // ---- native helpers freed after the test ---------------------------------------------------

    ReceiveWorkRequests wrs(int capacity) {
        ReceiveWorkRequests w = new ReceiveWorkRequests(capacity);
        natives.push(w);
        return w;
    }

    /** {@return a shared arena closed after the test's context (so after every MR on its memory)} */
    java.lang.foreign.Arena arena() {
        java.lang.foreign.Arena a = java.lang.foreign.Arena.ofShared();
        natives.push(a);
        return a;
    }

    WorkCompletionArray wcs(int capacity) {
        WorkCompletionArray w = new WorkCompletionArray(capacity);
        natives.push(w);
        return w;
    }

    SharedReceiveQueue srq(ProtectionDomain pd, int maxWr, int maxSge, int limit) throws VerbsException {
        return pd.createSrq(new SrqAttributes(maxWr, maxSge, limit));
    }

    // ---- completions -----------------------------------------------------------------------------

    /** A copy of one polled {@code struct ibv_wc}. */
    record Wc(long wrId, WcStatus status, int opcode, int byteLen, boolean hasImm, int immData, int qpNum,
              int srcQp, int flags) {
        static final int RECV = 128;
        static final int SEND = 0;
    }

    static List<Wc> copy(WorkCompletionArray a, int n) {
        List<Wc> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new Wc(a.wrId(i), a.status(i), a.opcode(i), a.byteLen(i), a.hasImm(i), a.immData(i), a.qpNum(i),
                    a.srcQp(i), a.wcFlags(i)));
        }
        return out;
    }

    /** Polls until {@code n} completions arrived (failing after {@link #PATIENCE}). */
    List<Wc> poll(CompletionQueue cq, int n) throws VerbsException, InterruptedException {
        WorkCompletionArray a = wcs(Math.max(1, Math.min(n, 64)));
        List<Wc> got = new ArrayList<>();
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (got.size() < n) {
            int k = cq.poll(a);
            if (k > 0) {
                got.addAll(copy(a, k));
            } else if (System.nanoTime() > deadline) {
                fail("expected " + n + " completions on " + target + ", got " + got.size() + " within " + PATIENCE
                        + ": " + got);
            } else {
                Thread.sleep(1);
            }
        }
        return got;
    }

    /** Polls for {@link #QUIET} and returns what came (for "nothing happens" checks). */
    List<Wc> pollQuietly(CompletionQueue cq) throws VerbsException, InterruptedException {
        WorkCompletionArray a = wcs(16);
        List<Wc> got = new ArrayList<>();
        long end = System.nanoTime() + QUIET.toNanos();
        while (System.nanoTime() < end) {
            int k = cq.poll(a);
            if (k > 0) {
                got.addAll(copy(a, k));
            } else {
                Thread.sleep(2);
            }
        }
        return got;
    }

    /** @return the next async event of one of {@code types} within {@code wait}, skipping others */
    Optional<AsyncEvent> event(Duration wait, AsyncEventType... types) throws VerbsException {
        EnumSet<AsyncEventType> wanted = EnumSet.noneOf(AsyncEventType.class);
        wanted.addAll(List.of(types));
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            Optional<AsyncEvent> e = ctx.getAsyncEvent(Duration.ofNanos(Math.max(0, left)));
            if (e.isEmpty() || wanted.contains(e.get().type())) {
                return e;
            }
        }
    }

    // ---- two connected RC QPs on one SRQ ----------------------------------------------------------

    /**
     * Two RC QPs of this context on one SRQ, each with its own CQ, connected to each other through
     * port 1 and the target's GID index. A sends to B; B's receives come from the SRQ. One registered
     * slab: sends from [0, 64 KiB), receive buffers of {@code slot} bytes from 64 KiB on.
     */
    final class Link {
        static final long SEND_AREA = 64 * 1024;
        final ProtectionDomain pd;
        final SharedReceiveQueue srq;
        final CompletionQueue cqA;
        final CompletionQueue cqB;
        final QueuePair a;
        final QueuePair b;
        final MemoryRegion mr;
        final int slot;
        final ReceiveWorkRequests chain;
        private long nextRecv;

        Link(int srqMaxWr, int slot, int rnrRetryOfA) throws VerbsException {
            this(srqMaxWr, slot, rnrRetryOfA, null, 256);
        }

        Link(int srqMaxWr, int slot, int rnrRetryOfA, CompletionChannel channelOfB, int cqeOfB) throws VerbsException {
            this(srqMaxWr, slot, rnrRetryOfA, channelOfB, cqeOfB, true);
        }

        /**
         * The objects of a link for connections through the CM: A and B are created but not
         * connected to each other.
         */
        Link(int srqMaxWr, int slot) throws VerbsException {
            this(srqMaxWr, slot, 7, null, 256, false);
        }

        /**
         * @param manual connect A and B to each other directly (ibv_modify_qp INIT → RTR → RTS); a
         *               provider that connects QPs only through its CM (EOPNOTSUPP: libfabric's MSG
         *               endpoints) skips the test, with its reason
         */
        private Link(int srqMaxWr, int slot, int rnrRetryOfA, CompletionChannel channelOfB, int cqeOfB, boolean manual)
                throws VerbsException {
            this.slot = slot;
            pd = ctx.allocPd();
            srq = srq(pd, srqMaxWr, 1, 0);
            cqA = ctx.createCq(256, null);
            cqB = ctx.createCq(cqeOfB, channelOfB);
            a = pd.createQp(QpInitAttributes.rcOnSrq(cqA, srq, 64));
            b = pd.createQp(QpInitAttributes.rcOnSrq(cqB, srq, 64));
            if (manual) {
                try {
                    a.connect(PORT, target.gidIndex(), b.localEndpoint(PORT, target.gidIndex()), rnrRetryOfA);
                    b.connect(PORT, target.gidIndex(), a.localEndpoint(PORT, target.gidIndex()));
                } catch (VerbsException e) {
                    if (!e.is(Errno.EOPNOTSUPP)) {
                        throw e;
                    }
                    connectThroughCm(rnrRetryOfA); // a provider whose QPs connect only through its CM (libfabric)
                }
            }
            mr = pd.allocateRegistered(SEND_AREA + (long) slot * 1024, EnumSet.of(AccessFlag.LOCAL_WRITE));
            chain = wrs(1024);
        }

        /** Connects {@code x} and {@code y} to each other: directly, or through the CM where QPs connect only so. */
        void connectPair(QueuePair x, QueuePair y) throws VerbsException {
            try {
                x.connect(PORT, target.gidIndex(), y.localEndpoint(PORT, target.gidIndex()));
                y.connect(PORT, target.gidIndex(), x.localEndpoint(PORT, target.gidIndex()));
            } catch (VerbsException e) {
                if (!e.is(Errno.EOPNOTSUPP)) {
                    throw e;
                }
                connectThroughCm(x, y);
            }
        }

        /** A connects to B through the CM on the loopback address: B listens and accepts. */
        private void connectThroughCm(int rnrRetryOfA) throws VerbsException {
            connectThroughCm(a, b);
        }

        /** {@code x} connects to {@code y} through the CM on the loopback address: y's side listens and accepts. */
        private void connectThroughCm(QueuePair x, QueuePair y) throws VerbsException {
            CmListener listener = ctx.listen(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 4);
            java.net.InetSocketAddress at = new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(),
                    listener.localAddress().getPort());
            ConnectionParameters parameters = ConnectionParameters.RDMA_CM_DEFAULTS;
            java.util.concurrent.CompletableFuture<CmConnection> connecting = java.util.concurrent.CompletableFuture
                    .supplyAsync(() -> ctx.connect(x, at, PATIENCE, new byte[0], parameters));
            CmEvent request = nextOfType(listener, io.rdma.srq.api.CmEventType.CONNECT_REQUEST);
            request.request().accept(y);
            connecting.join();
        }

        /** Posts {@code n} receives with consecutive wr_ids (starting where the last post ended). */
        void postReceives(int n) throws VerbsException {
            for (int i = 0; i < n; i++) {
                long id = nextRecv++;
                chain.set(i, id, recvAddress(id), slot, mr.lkey());
            }
            srq.postReceive(chain, n);
        }

        long recvAddress(long wrId) {
            return mr.address() + SEND_AREA + (wrId % 1024) * slot;
        }

        byte[] received(long wrId, int length) {
            return mr.segment().asSlice(SEND_AREA + (wrId % 1024) * slot, length).toArray(ValueLayout.JAVA_BYTE);
        }

        /** A sends {@code payload} from {@code offset} of the send area. */
        void send(long wrId, long offset, byte[] payload, Integer imm) throws VerbsException {
            mr.segment().asSlice(offset, payload.length).copyFrom(java.lang.foreign.MemorySegment.ofArray(payload));
            a.postSend(wrId, mr, offset, payload.length, imm);
        }
    }

    /** @return the device's own IP address: the IPv4-mapped GID as IPv4, else the GID as IPv6; loopback for a QP without GID */
    java.net.InetAddress deviceAddress(QueuePair qp) throws VerbsException, java.net.UnknownHostException {
        try {
            return java.net.InetAddress.getByAddress(qp.localEndpoint(PORT, target.gidIndex()).gid());
        } catch (VerbsException e) {
            if (e.is(Errno.EOPNOTSUPP)) {
                return java.net.InetAddress.getLoopbackAddress(); // a QP without GID (libfabric tcp): the host's
            }
            throw e;
        }
    }

    /** @return the next event of {@code type} within {@link #PATIENCE}, skipping others */
    static io.rdma.srq.verbs.CmEvent nextOfType(io.rdma.srq.verbs.CmListener listener, io.rdma.srq.api.CmEventType type)
            throws VerbsException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (System.nanoTime() < deadline) {
            var e = listener.nextEvent(Duration.ofNanos(deadline - System.nanoTime()));
            if (e.isPresent() && e.get().type() == type) {
                return e.get();
            }
        }
        throw new AssertionError("no " + type + " within " + PATIENCE);
    }

    static byte[] payload(int length, int seed) {
        byte[] p = new byte[length];
        for (int i = 0; i < length; i++) {
            p[i] = (byte) (seed * 31 + i);
        }
        return p;
    }
}
