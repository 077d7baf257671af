package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.RpmaEndpoint;
import io.rdma.srq.verbs.RpmaMemory;
import io.rdma.srq.verbs.RpmaPeer;
import io.rdma.srq.verbs.RpmaSrq;
import io.rdma.srq.verbs.RpmaSrqConfig;
import io.rdma.srq.verbs.ffi.rpma.Rpma;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** {@link RpmaPeer} over {@code struct rpma_peer}; its SRQs and memory are its children. */
final class IbvRpmaPeer extends IbvResource implements RpmaPeer {
    private final IbvContext context;
    private final long verbsContext;

    private IbvRpmaPeer(IbvContext context, MemorySegment peer, long verbsContext) {
        super(context, "rpma peer on " + context.deviceName(), "rpma_peer_delete", peer, 0);
        this.context = context;
        this.verbsContext = verbsContext;
    }

    /** {@return the address of the ibv_context the peer's objects live on (librdmacm's)} */
    long verbsContext() {
        return verbsContext;
    }

    static IbvRpmaPeer open(IbvContext context) throws VerbsException {
        Librpma.ensureAvailable();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cell = arena.allocate(ValueLayout.ADDRESS);
            // librpma's connections are rdma_cm ids: their QPs are made on librdmacm's own context of the
            // device, so the peer (its PD) must be on that context too (librpma gets it the same way,
            // rpma_utils_get_ibv_context(3)); ours would fail rdma_create_qp with a foreign PD
            MemorySegment cmContext = CmChannel.cmContext(context.deviceName());
            Librpma.call("rpma_peer_new", context.deviceName(), Librpma.H.PEER_NEW, null, cmContext, cell);
            return new IbvRpmaPeer(context, cell.get(ValueLayout.ADDRESS, 0), cmContext.address());
        }
    }

    IbvContext ibvContext() {
        return context;
    }

    @Override
    public RpmaSrq createSrq(RpmaSrqConfig config) throws VerbsException {
        return whileOpen(() -> IbvRpmaSrq.create(this, config));
    }

    @Override
    public RpmaMemory registerForReceive(long bytes) throws VerbsException {
        ensureOpen();
        if (bytes < 1) {
            throw new VerbsException("rpma_mr_reg", Errno.EINVAL, "bytes must be ≥ 1, got " + bytes);
        }
        return whileOpen(() -> IbvRpmaMemory.register(this, bytes, Rpma.RPMA_MR_USAGE_RECV()));
    }

    @Override
    public RpmaEndpoint listen(String address, int port) throws VerbsException {
        ensureOpen();
        if (port < 1 || port > 65535) {
            throw new VerbsException("rpma_ep_listen", Errno.EINVAL, "port must be in 1..65535, got " + port);
        }
        return whileOpen(() -> IbvRpmaEndpoint.listen(this, address, port));
    }

    @Override
    protected void destroy() throws VerbsException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cell = arena.allocate(ValueLayout.ADDRESS);
            cell.set(ValueLayout.ADDRESS, 0, raw());
            Librpma.check("rpma_peer_delete", Rpma.rpma_peer_delete(cell), kind());
        }
    }
}
