package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
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

    private IbvRpmaPeer(IbvContext context, MemorySegment peer) {
        super(context, "rpma peer on " + context.deviceName(), "rpma_peer_delete", peer, 0);
        this.context = context;
    }

    static IbvRpmaPeer open(IbvContext context) throws VerbsException {
        Librpma.ensureAvailable();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cell = arena.allocate(ValueLayout.ADDRESS);
            Librpma.call("rpma_peer_new", context.deviceName(), Librpma.H.PEER_NEW, null, context.handle(), cell);
            return new IbvRpmaPeer(context, cell.get(ValueLayout.ADDRESS, 0));
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
        if (bytes < 1) {
            throw new VerbsException("rpma_mr_reg", Errno.EINVAL, "bytes must be ≥ 1, got " + bytes);
        }
        return whileOpen(() -> IbvRpmaMemory.register(this, bytes, Rpma.RPMA_MR_USAGE_RECV()));
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
