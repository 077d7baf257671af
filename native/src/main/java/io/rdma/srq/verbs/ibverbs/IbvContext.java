package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.api.AsyncEventType;
import io.rdma.srq.api.DeviceAttributes;
import io.rdma.srq.api.EfaDeviceAttributes;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.PortAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.AsyncEvent;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.ConnectionParameters;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.RpmaPeer;
import io.rdma.srq.verbs.CompletionChannel;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.VerbsObject;
import io.rdma.srq.verbs.XrcDomain;
import io.rdma.srq.verbs.ffi.ibverbs.IbVerbs;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_async_event;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_context;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_device_attr;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_gid;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_port_attr;
import io.rdma.srq.verbs.NetworkOrder;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** {@link Context} over {@code struct ibv_context}. */
final class IbvContext extends IbvResource implements Context {
    private static final MethodHandle OPEN = NativeCall.capturing(
            IbVerbs.ibv_open_device$address(), IbVerbs.ibv_open_device$descriptor());
    private static final MethodHandle CLOSE = NativeCall.capturing(
            IbVerbs.ibv_close_device$address(), IbVerbs.ibv_close_device$descriptor());
    private static final MethodHandle QUERY_DEVICE = NativeCall.capturing(
            IbVerbs.ibv_query_device$address(), IbVerbs.ibv_query_device$descriptor());
    private static final MethodHandle QUERY_PORT_COMPAT = NativeCall.capturing(
            IbVerbs.ibv_query_port$address(), IbVerbs.ibv_query_port$descriptor());
    private static final MethodHandle QUERY_GID = NativeCall.capturing(
            IbVerbs.ibv_query_gid$address(), IbVerbs.ibv_query_gid$descriptor());
    private static final MethodHandle GET_ASYNC_EVENT = NativeCall.capturing(
            IbVerbs.ibv_get_async_event$address(), IbVerbs.ibv_get_async_event$descriptor());

    private final String deviceName;
    private final ContextOps ops;
    private final int asyncFd;
    private final Map<Long, VerbsObject> elements = new ConcurrentHashMap<>();

    private IbvContext(MemorySegment ctx, String deviceName) throws VerbsException {
        super(null, "context " + deviceName, "ibv_close_device", ctx, ibv_context.sizeof());
        this.deviceName = deviceName;
        this.ops = new ContextOps(handle());
        this.asyncFd = ibv_context.async_fd(handle());
        Posix.setNonBlocking(asyncFd);
    }

    /**
     * ibv_open_device(3).
     *
     * @param device an entry of the device list
     * @param name   its name
     * @return the context
     * @throws VerbsException the errno of ibv_open_device
     */
    static IbvContext open(MemorySegment device, String name) throws VerbsException {
        MemorySegment ctx = NativeCall.pointer("ibv_open_device", name, OPEN, null, device);
        try {
            return new IbvContext(ctx, name);
        } catch (RuntimeException e) {
            closeQuietly(ctx, e);
            throw e;
        }
    }

    private static void closeQuietly(MemorySegment ctx, Exception cause) {
        try {
            NativeCall.status("ibv_close_device", null, CLOSE, null, ctx);
        } catch (VerbsException e) {
            cause.addSuppressed(e);
        }
    }

    ContextOps ops() {
        return ops;
    }

    /** Makes {@code element} findable from async and completion events by its native address. */
    void register(IbvResource element) {
        elements.put(element.nativeAddress(), element);
    }

    void unregister(IbvResource element) {
        elements.remove(element.nativeAddress(), element);
    }

    VerbsObject element(long address) {
        return elements.get(address);
    }

    @Override
    public String deviceName() {
        ensureOpen();
        return deviceName;
    }

    @Override
    public String providerName() {
        ensureOpen();
        return Verbs.IBVERBS;
    }

    @Override
    public DeviceAttributes queryDevice() throws VerbsException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(ibv_device_attr.layout());
            NativeCall.status("ibv_query_device", deviceName, QUERY_DEVICE, null, handle(), a);
            return DeviceAttributes.builder()
                    .fwVersion(ibv_device_attr.fw_ver(a).getString(0))
                    .nodeGuid(NetworkOrder.swap64(ibv_device_attr.node_guid(a)))
                    .sysImageGuid(NetworkOrder.swap64(ibv_device_attr.sys_image_guid(a)))
                    .maxMrSize(ibv_device_attr.max_mr_size(a))
                    .pageSizeCap(ibv_device_attr.page_size_cap(a))
                    .vendorId(Integer.toUnsignedLong(ibv_device_attr.vendor_id(a)))
                    .vendorPartId(Integer.toUnsignedLong(ibv_device_attr.vendor_part_id(a)))
                    .hwVersion(Integer.toUnsignedLong(ibv_device_attr.hw_ver(a)))
                    .maxQp(ibv_device_attr.max_qp(a))
                    .maxQpWr(ibv_device_attr.max_qp_wr(a))
                    .deviceCapFlags(Integer.toUnsignedLong(ibv_device_attr.device_cap_flags(a)))
                    .maxSge(ibv_device_attr.max_sge(a))
                    .maxSgeRd(ibv_device_attr.max_sge_rd(a))
                    .maxCq(ibv_device_attr.max_cq(a))
                    .maxCqe(ibv_device_attr.max_cqe(a))
                    .maxMr(ibv_device_attr.max_mr(a))
                    .maxPd(ibv_device_attr.max_pd(a))
                    .maxQpRdAtom(ibv_device_attr.max_qp_rd_atom(a))
                    .maxEeRdAtom(ibv_device_attr.max_ee_rd_atom(a))
                    .maxResRdAtom(ibv_device_attr.max_res_rd_atom(a))
                    .maxQpInitRdAtom(ibv_device_attr.max_qp_init_rd_atom(a))
                    .maxEeInitRdAtom(ibv_device_attr.max_ee_init_rd_atom(a))
                    .atomicCap(ibv_device_attr.atomic_cap(a))
                    .maxEe(ibv_device_attr.max_ee(a))
                    .maxRdd(ibv_device_attr.max_rdd(a))
                    .maxMw(ibv_device_attr.max_mw(a))
                    .maxRawIpv6Qp(ibv_device_attr.max_raw_ipv6_qp(a))
                    .maxRawEthyQp(ibv_device_attr.max_raw_ethy_qp(a))
                    .maxMcastGrp(ibv_device_attr.max_mcast_grp(a))
                    .maxMcastQpAttach(ibv_device_attr.max_mcast_qp_attach(a))
                    .maxTotalMcastQpAttach(ibv_device_attr.max_total_mcast_qp_attach(a))
                    .maxAh(ibv_device_attr.max_ah(a))
                    .maxFmr(ibv_device_attr.max_fmr(a))
                    .maxMapPerFmr(ibv_device_attr.max_map_per_fmr(a))
                    .maxSrq(ibv_device_attr.max_srq(a))
                    .maxSrqWr(ibv_device_attr.max_srq_wr(a))
                    .maxSrqSge(ibv_device_attr.max_srq_sge(a))
                    .maxPkeys(Short.toUnsignedInt(ibv_device_attr.max_pkeys(a)))
                    .localCaAckDelay(Byte.toUnsignedInt(ibv_device_attr.local_ca_ack_delay(a)))
                    .physPortCnt(Byte.toUnsignedInt(ibv_device_attr.phys_port_cnt(a)))
                    .build();
        }
    }

    @Override
    public PortAttributes queryPort(int port) throws VerbsException {
        ensureOpen();
        checkPort(port);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(ibv_port_attr.layout());
            String detail = deviceName + " port " + port;
            MemorySegment queryPort = ops.queryPort();
            if (queryPort != null) {
                NativeCall.status("ibv_query_port", detail, ContextOps.QUERY_PORT, queryPort,
                        handle(), (byte) port, a, ibv_port_attr.sizeof());
            } else {
                NativeCall.status("ibv_query_port", detail, QUERY_PORT_COMPAT, null, handle(), (byte) port, a);
            }
            return PortAttributes.builder()
                    .state(ibv_port_attr.state(a))
                    .maxMtu(ibv_port_attr.max_mtu(a))
                    .activeMtu(ibv_port_attr.active_mtu(a))
                    .gidTblLen(ibv_port_attr.gid_tbl_len(a))
                    .portCapFlags(Integer.toUnsignedLong(ibv_port_attr.port_cap_flags(a)))
                    .maxMsgSz(Integer.toUnsignedLong(ibv_port_attr.max_msg_sz(a)))
                    .badPkeyCntr(Integer.toUnsignedLong(ibv_port_attr.bad_pkey_cntr(a)))
                    .qkeyViolCntr(Integer.toUnsignedLong(ibv_port_attr.qkey_viol_cntr(a)))
                    .pkeyTblLen(Short.toUnsignedInt(ibv_port_attr.pkey_tbl_len(a)))
                    .lid(Short.toUnsignedInt(ibv_port_attr.lid(a)))
                    .smLid(Short.toUnsignedInt(ibv_port_attr.sm_lid(a)))
                    .lmc(Byte.toUnsignedInt(ibv_port_attr.lmc(a)))
                    .maxVlNum(Byte.toUnsignedInt(ibv_port_attr.max_vl_num(a)))
                    .smSl(Byte.toUnsignedInt(ibv_port_attr.sm_sl(a)))
                    .subnetTimeout(Byte.toUnsignedInt(ibv_port_attr.subnet_timeout(a)))
                    .initTypeReply(Byte.toUnsignedInt(ibv_port_attr.init_type_reply(a)))
                    .activeWidth(Byte.toUnsignedInt(ibv_port_attr.active_width(a)))
                    .activeSpeed(Byte.toUnsignedInt(ibv_port_attr.active_speed(a)))
                    .physState(Byte.toUnsignedInt(ibv_port_attr.phys_state(a)))
                    .linkLayer(Byte.toUnsignedInt(ibv_port_attr.link_layer(a)))
                    .flags(Byte.toUnsignedInt(ibv_port_attr.flags(a)))
                    .portCapFlags2(Short.toUnsignedInt(ibv_port_attr.port_cap_flags2(a)))
                    .build();
        }
    }

    private void checkPort(int port) throws VerbsException {
        if (port < 1 || port > 255) {
            throw new VerbsException("ibv_query_port", Errno.EINVAL,
                    "port must be in 1..phys_port_cnt (at most 255), got " + port);
        }
    }

    /**
     * ibv_query_gid(3).
     *
     * @param port  the port
     * @param index the GID index, 0..gid_tbl_len − 1
     * @return the 16-byte GID
     * @throws VerbsException the errno of ibv_query_gid
     */
    @Override
    public byte[] queryGid(int port, int index) throws VerbsException {
        ensureOpen();
        checkPort(port);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment gid = arena.allocate(ibv_gid.layout());
            NativeCall.status("ibv_query_gid", deviceName + " port " + port + " index " + index, QUERY_GID, null,
                    handle(), (byte) port, index, gid);
            return ibv_gid.raw(gid).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        }
    }

    @Override
    public Optional<EfaDeviceAttributes> queryEfaDevice() throws VerbsException {
        return EfaDirectVerbs.query(handle(), deviceName);
    }

    @Override
    public Optional<AsyncEvent> getAsyncEvent(Duration timeout) throws VerbsException {
        ensureOpen();
        if (!Posix.readable(asyncFd, scope(), timeout)) {
            return Optional.empty();
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment event = arena.allocate(ibv_async_event.layout());
            try {
                NativeCall.status("ibv_get_async_event", deviceName, GET_ASYNC_EVENT, null, handle(), event);
            } catch (VerbsException e) {
                if (e.is(Errno.EAGAIN)) {
                    return Optional.empty(); // another thread took it
                }
                throw e;
            }
            AsyncEventType type = AsyncEventType.of(ibv_async_event.event_type(event));
            MemorySegment element = ibv_async_event.element(event);
            VerbsObject object = null;
            int portNum = 0;
            switch (type.element()) {
                case PORT -> portNum = element.get(java.lang.foreign.ValueLayout.JAVA_INT, 0);
                case CQ, QP, SRQ, WQ -> object = element(element.get(java.lang.foreign.ValueLayout.ADDRESS, 0).address());
                case DEVICE -> { }
            }
            IbVerbs.ibv_ack_async_event(event);
            return Optional.of(new AsyncEvent(type, object, portNum));
        }
    }

    @Override
    public ProtectionDomain allocPd() throws VerbsException {
        return whileOpen(() -> IbvProtectionDomain.allocate(this));
    }

    @Override
    public CompletionChannel createCompletionChannel() throws VerbsException {
        return whileOpen(() -> IbvCompletionChannel.create(this));
    }

    @Override
    public CompletionQueue createCq(int cqe, CompletionChannel channel) throws VerbsException {
        return whileOpen(() -> IbvCompletionQueue.create(this, cqe, (IbvCompletionChannel) channel));
    }

    @Override
    public CmListener listen(InetSocketAddress address, int backlog) throws VerbsException {
        ensureOpen();
        return IbvCmListener.listen(this, address, backlog);
    }

    @Override
    public CmConnection connect(QueuePair qp, InetSocketAddress remote, Duration timeout, byte[] privateData,
                                ConnectionParameters parameters) throws VerbsException {
        ensureOpen();
        Context.checkConnectPrivateData(privateData);
        if (!(qp instanceof IbvQueuePair q) || q.ibvContext() != this) {
            throw new VerbsException("rdma_connect", Errno.EINVAL, "the QP must be created on this context " + deviceName);
        }
        return IbvCmConnection.connect(this, q, remote, timeout, privateData,
                java.util.Objects.requireNonNull(parameters, "parameters"));
    }

    @Override
    public RpmaPeer openRpmaPeer() throws VerbsException {
        return whileOpen(() -> IbvRpmaPeer.open(this));
    }

    @Override
    public XrcDomain openXrcd() throws VerbsException {
        return whileOpen(() -> IbvXrcDomain.open(this));
    }

    @Override
    protected void destroy() throws VerbsException {
        NativeCall.status("ibv_close_device", deviceName, CLOSE, null, raw());
    }
}
