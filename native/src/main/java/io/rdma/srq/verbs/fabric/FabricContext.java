package io.rdma.srq.verbs.fabric;

import io.rdma.srq.api.AsyncEventType;
import io.rdma.srq.api.DeviceAttributes;
import io.rdma.srq.api.EfaDeviceAttributes;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.PortAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.AsyncEvent;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.CompletionChannel;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.ConnectRejectedException;
import io.rdma.srq.verbs.ConnectionParameters;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.RpmaPeer;
import io.rdma.srq.verbs.VerbsObject;
import io.rdma.srq.verbs.XrcDomain;
import io.rdma.srq.verbs.ffi.fabric.Fabric;
import io.rdma.srq.verbs.ffi.fabric.fi_domain_attr;
import io.rdma.srq.verbs.ffi.fabric.fi_ep_attr;
import io.rdma.srq.verbs.ffi.fabric.fi_info;
import io.rdma.srq.verbs.ffi.fabric.fi_rx_attr;
import io.rdma.srq.verbs.ffi.fabric.fi_tx_attr;
import io.rdma.srq.verbs.spi.EventQueue;
import io.rdma.srq.verbs.spi.ResourceBase;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A device of the fabric provider: one libfabric fabric and domain (fi_fabric(3), fi_domain(3)) of
 * the chosen libfabric provider, opened from fi_getinfo(3)'s first answer for it. Device and port
 * attributes are synthesized from that fi_info ({@link #queryDevice}): vendor_id 0, no capability
 * flags (so no SRQ resize), max_srq_sge and max_sge 1, max_qp_wr the tx_attr size, max_msg_sz the
 * ep_attr max_msg_size; one port, ACTIVE, Ethernet link layer, no GID but the zero one.
 *
 * <p>What differs from a verbs device, each by its source ({@link #QUIRKS}).
 */
final class FabricContext extends ResourceBase implements Context {
    /** The divergences from verbs this provider has, named as the soft profiles name theirs. */
    static final List<String> QUIRKS = List.of(
            "srq-limit-emulated: IBV_EVENT_SRQ_LIMIT_REACHED is raised by the provider when a receive completion"
                    + " is polled (libfabric has no limit event; fi_endpoint(3) srx)",
            "no-srq-resize: a shared receive context has a fixed size (fi_endpoint(3) rx_attr size)",
            "cm-only-connect: a MSG endpoint connects through fi_connect/fi_accept only (fi_cm(3)); manual RC"
                    + " connection (ibv_modify_qp INIT/RTR/RTS) is EOPNOTSUPP",
            "one-sge: fi_recv and fi_send take one buffer; max_sge and max_srq_sge are 1",
            "truncation-at-receiver: a SEND longer than the receive completes the receive with IBV_WC_LOC_LEN_ERR;"
                    + " the sender's completion is an error on libfabric 1.17, a success on 2.1",
            "channel-by-wait-set: a completion channel is a wait set (FI_WAIT_FD) its CQs are bound to; where the"
                    + " library opens none (wait sets are deprecated in libfabric 2), the CQs are read with pauses"
                    + " up to 50 us (io.rdma.srq.fabric.channelPauseMicros)",
            "cq-open-races-fi-wait: a CQ bound to a wait set is opened and closed only while no thread is in"
                    + " fi_wait on the set (libfabric 1.17's ofi_cq_init adds it to the set's poll set before its"
                    + " queue exists, util_cq.c; a wait beside it crashed); a change wakes the waiter with"
                    + " fi_cq_signal");

    /** The SRQ size this provider offers at most, whatever the srx default (65,536 on 1.17, 1,024 on 2.1). */
    static final int MAX_SRQ_WR = 65_536;

    private final String provider;
    private final MemorySegment baseInfo;
    private final long rawFabric;
    private final long rawDomain;
    private final MemorySegment fabric;
    private final MemorySegment domain;
    /** The provider's mr_mode has FI_MR_LOCAL: buffers are registered (fi_mr_reg) and named by descriptor. */
    private final boolean registersMemory;
    private final DeviceAttributes device;
    private final PortAttributes port;
    private final EventQueue<AsyncEvent> events = new EventQueue<>();
    private final AtomicInteger numbers = new AtomicInteger(0x100);
    private final FabricProgress progress;

    private FabricContext(String provider, MemorySegment baseInfo, long rawFabric, long rawDomain) {
        super(null, "libfabric " + provider + " device", "ibv_close_device");
        this.provider = provider;
        this.progress = new FabricProgress(provider);
        this.baseInfo = baseInfo;
        this.rawFabric = rawFabric;
        this.rawDomain = rawDomain;
        this.fabric = MemorySegment.ofAddress(rawFabric).reinterpret(scope(), null);
        this.domain = MemorySegment.ofAddress(rawDomain).reinterpret(scope(), null);
        MemorySegment i = baseInfo.reinterpret(fi_info.sizeof());
        this.registersMemory = (fi_domain_attr.mr_mode(fi_info.domain_attr(i).reinterpret(fi_domain_attr.sizeof()))
                & Fabric.FI_MR_LOCAL()) != 0;
        long txSize = fi_tx_attr.size(fi_info.tx_attr(i).reinterpret(fi_tx_attr.sizeof()));
        long maxMsg = fi_ep_attr.max_msg_size(fi_info.ep_attr(i).reinterpret(fi_ep_attr.sizeof()));
        this.device = DeviceAttributes.builder()
                .fwVersion(versionText(Fabric.fi_version()))
                .maxMrSize(-1L)
                .pageSizeCap(0xfffff000L)
                .maxQp(65_536)
                .maxQpWr((int) Math.min(Math.max(txSize, 1), 65_536))
                .maxSge(1)
                .maxCq(65_536)
                .maxCqe(65_536)
                .maxMr(1 << 20)
                .maxPd(1 << 20)
                .maxSrq((int) Math.min(fi_domain_attr.max_ep_srx_ctx(fi_info.domain_attr(i)
                        .reinterpret(fi_domain_attr.sizeof())), 65_536))
                .maxSrqWr(MAX_SRQ_WR)
                .maxSrqSge(1)
                .physPortCnt(1)
                .build();
        this.port = PortAttributes.builder()
                .state(PortAttributes.STATE_ACTIVE)
                .physState(5)
                .linkLayer(2)
                .maxMtu(5)
                .activeMtu(5)
                .gidTblLen(1)
                .maxMsgSz(maxMsg)
                .build();
    }

    /**
     * Opens the fabric and domain of {@code provider}.
     *
     * @throws VerbsException ENODEV when libfabric offers no MSG endpoint with shared receive
     *                        contexts of that provider, naming what it offers; libfabric's errno
     */
    static FabricContext open(String provider) {
        MemorySegment info = FabricDiscovery.info(provider, null, null, 0);
        if (info.equals(MemorySegment.NULL)) {
            throw FabricProvider.noSuchDevice(provider);
        }
        long rawFabric = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment i = info.reinterpret(fi_info.sizeof());
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            FabricOps.check("fi_fabric", Fabric.fi_fabric(fi_info.fabric_attr(i), out, MemorySegment.NULL));
            rawFabric = out.get(ValueLayout.ADDRESS, 0).address();
            FabricOps.check("fi_domain", FabricOps.domain(MemorySegment.ofAddress(rawFabric), i, out,
                    MemorySegment.NULL));
            return new FabricContext(provider, info, rawFabric, out.get(ValueLayout.ADDRESS, 0).address());
        } catch (RuntimeException e) {
            if (rawFabric != 0) {
                FabricOps.close(MemorySegment.ofAddress(rawFabric));
            }
            Fabric.fi_freeinfo(info);
            throw e;
        }
    }

    private static String versionText(int version) {
        return (version >>> 16) + "." + (version & 0xffff);
    }

    MemorySegment fabric() {
        return fabric;
    }

    MemorySegment domain() {
        return domain;
    }

    /**
     * {@return whether a send completes only once the peer acknowledged it, by the transport itself}
     * The verbs provider's MSG endpoint is an RC QP (a send completes on the responder's ACK, and it
     * offers no FI_DELIVERY_COMPLETE: fi_endpoint refuses it with ENODATA); tcp's completes when the
     * socket took it, so there sends ask FI_DELIVERY_COMPLETE.
     */
    boolean sendCompletesOnAck() {
        return "verbs".equals(provider);
    }

    /** {@return whether the provider asks local buffers registered (mr_mode FI_MR_LOCAL: verbs; tcp does not)} */
    boolean registersMemory() {
        return registersMemory;
    }

    FabricProgress progress() {
        return progress;
    }

    /** {@return a new number for a QP, SRQ or memory key: unique in this context} */
    int nextNumber() {
        return numbers.getAndIncrement() & 0xffffff;
    }

    /**
     * fi_getinfo(3) of this context's libfabric provider for {@code node}:{@code service}.
     *
     * @throws VerbsException EADDRNOTAVAIL when nothing matches (FI_ENODATA)
     */
    MemorySegment info(String node, String service, long flags) {
        MemorySegment info = FabricDiscovery.info(provider, node, service, flags);
        if (info.equals(MemorySegment.NULL)) {
            throw new VerbsException("fi_getinfo", Errno.EADDRNOTAVAIL, "libfabric's " + provider
                    + " provider offers no MSG endpoint for " + node + ":" + service);
        }
        return info;
    }

    /** fi_srx_context(3) of {@code size} receives; {@return the raw struct fid_ep *} */
    MemorySegment openSrx(int size) {
        return whileOpen(() -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment attr = arena.allocate(fi_rx_attr.layout());
                MemorySegment.copy(fi_info.rx_attr(baseInfo.reinterpret(fi_info.sizeof())).reinterpret(
                        fi_rx_attr.sizeof()), 0, attr, 0, fi_rx_attr.sizeof());
                fi_rx_attr.size(attr, size);
                MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
                FabricOps.check("fi_srx_context", FabricOps.srxContext(domain, attr, out, MemorySegment.NULL));
                return out.get(ValueLayout.ADDRESS, 0);
            }
        });
    }

    void queueEvent(AsyncEventType type, VerbsObject element) {
        events.add(new AsyncEvent(type, element, 0));
    }

    FabricQueuePair queuePairOf(QueuePair qp, String operation) {
        if (!(qp instanceof FabricQueuePair q) || q.fabricContext() != this) {
            throw new VerbsException(operation, Errno.EINVAL, "the QP is not one of " + kind());
        }
        return q;
    }

    @Override
    public String deviceName() {
        return provider;
    }

    @Override
    public String providerName() {
        return FabricProvider.NAME;
    }

    @Override
    public DeviceAttributes queryDevice() {
        ensureOpen();
        return device;
    }

    @Override
    public PortAttributes queryPort(int portNum) {
        ensureOpen();
        if (portNum != 1) {
            throw new VerbsException("ibv_query_port", Errno.EINVAL, "port must be 1 on " + provider + ", got "
                    + portNum);
        }
        return port;
    }

    @Override
    public Optional<EfaDeviceAttributes> queryEfaDevice() {
        ensureOpen();
        return Optional.empty();
    }

    @Override
    public byte[] queryGid(int portNum, int index) {
        queryPort(portNum);
        if (index != 0) {
            throw new VerbsException("ibv_query_gid", Errno.EINVAL, "index must be 0 on " + provider + ", got "
                    + index);
        }
        return new byte[16];
    }

    @Override
    public Optional<AsyncEvent> getAsyncEvent(Duration timeout) {
        ensureOpen();
        return events.take(timeout).map(e -> new AsyncEvent(e.type(),
                e.element() == null || e.element().isClosed() ? null : e.element(), e.portNum()));
    }

    @Override
    public ProtectionDomain allocPd() {
        return whileOpen(() -> new FabricProtectionDomain(this));
    }

    @Override
    public CompletionChannel createCompletionChannel() {
        return whileOpen(() -> new FabricCompletionChannel(this));
    }

    @Override
    public CompletionQueue createCq(int cqe, CompletionChannel channel) {
        int max = device.maxCqe();
        if (cqe < 1 || cqe > max) {
            throw new VerbsException("ibv_create_cq", Errno.EINVAL, "cqe must be in 1.." + max + " on " + provider
                    + ", got " + cqe);
        }
        FabricCompletionChannel ch = null;
        if (channel != null) {
            if (!(channel instanceof FabricCompletionChannel c) || c.isClosed()) {
                throw new VerbsException("ibv_create_cq", Errno.EINVAL, "the completion channel is not an open one of "
                        + kind());
            }
            ch = c;
        }
        FabricCompletionChannel on = ch;
        return whileOpen(() -> new FabricCompletionQueue(this, cqe, on), on);
    }

    @Override
    public CmListener listen(InetSocketAddress address, int backlog) {
        return whileOpen(() -> FabricCmListener.create(this, address));
    }

    /**
     * fi_getinfo(3) for the peer, the QP's endpoint opened on it with its own EQ, fi_connect(3) with
     * {@code privateData}, then the EQ read until FI_CONNECTED, an error entry or {@code timeout}.
     *
     * @throws ConnectRejectedException the peer rejected (ECONNREFUSED with its private data), or
     *                                  nobody listens there (ECONNREFUSED, no data)
     * @throws VerbsException           ETIMEDOUT, EINVAL for a QP not of this context, libfabric's errno
     */
    @Override
    public CmConnection connect(QueuePair qp, InetSocketAddress remote, Duration timeout, byte[] privateData,
                                ConnectionParameters parameters) {
        ensureOpen();
        Context.checkConnectPrivateData(privateData);
        FabricQueuePair q = queuePairOf(qp, "rdma_connect");
        if (remote.isUnresolved()) {
            throw new VerbsException("rdma_resolve_addr", Errno.EADDRNOTAVAIL, "unresolved address " + remote);
        }
        MemorySegment info = info(remote.getAddress().getHostAddress(), String.valueOf(remote.getPort()), 0);
        FabricEq eq = new FabricEq(fabric);
        MemorySegment ep;
        try {
            ep = q.realize(info, eq, parameters);
        } catch (RuntimeException e) {
            Fabric.fi_freeinfo(info);
            throw e;
        } finally {
            eq.release(); // the QP holds its own reference once realized
        }
        FabricCmConnection c = new FabricCmConnection(this, q, remote, null, eq);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment param = privateData.length == 0 ? MemorySegment.NULL
                    : arena.allocateFrom(ValueLayout.JAVA_BYTE, privateData);
            FabricOps.check("fi_connect", FabricOps.connect(ep, fi_info.dest_addr(info.reinterpret(fi_info.sizeof())),
                    param, privateData.length));
            awaitConnected(c, eq, remote, timeout);
            return c;
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private static void awaitConnected(FabricCmConnection c, FabricEq eq, InetSocketAddress remote, Duration timeout) {
        long deadline = System.nanoTime() + EventQueue.toNanos(timeout);
        while (true) {
            long left = deadline - System.nanoTime();
            Optional<FabricEq.Event> e = eq.read(Duration.ofNanos(Math.max(0, left)));
            if (e.isEmpty()) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new VerbsException("rdma_connect", Errno.EINTR, "interrupted connecting to " + remote);
                }
                throw new VerbsException("rdma_connect", Errno.ETIMEDOUT, "no FI_CONNECTED from " + remote
                        + " within " + timeout);
            }
            FabricEq.Event event = e.get();
            if (event.fid() != c.fid()) {
                continue;
            }
            if (event.type() == Fabric.FI_CONNECTED()) {
                c.established(true);
                return;
            }
            if (event.type() == FabricEq.ERROR && event.errno() == Errno.ECONNREFUSED.value()) {
                throw new ConnectRejectedException(event.data().length > 0 ? ConnectRejectedException.CONSUMER_DEFINED
                        : ConnectRejectedException.INVALID_SERVICE_ID, event.data(), "by " + remote + " (fi_connect)");
            }
            throw new VerbsException("rdma_connect", event.type() == FabricEq.ERROR ? event.errno()
                    : Errno.ECONNRESET.value(), "connecting to " + remote);
        }
    }

    @Override
    public RpmaPeer openRpmaPeer() {
        throw new VerbsException("rpma_peer_new", Errno.EOPNOTSUPP, "librpma runs on ibverbs devices only");
    }

    @Override
    public XrcDomain openXrcd() {
        throw new VerbsException("ibv_open_xrcd", Errno.EOPNOTSUPP, "libfabric has no XRC");
    }

    @Override
    protected void destroy() {
        progress.stop();
        events.close();
        FabricOps.close(MemorySegment.ofAddress(rawDomain));
        FabricOps.close(MemorySegment.ofAddress(rawFabric));
        Fabric.fi_freeinfo(baseInfo);
    }
}
