package io.rdma.srq.verbs.fabric;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.XrcDomain;
import io.rdma.srq.verbs.ffi.fabric.Fabric;
import io.rdma.srq.verbs.spi.RegistrationRules;
import io.rdma.srq.verbs.spi.ResourceBase;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A PD of the fabric provider: the context's domain seen as a protection domain (libfabric has one
 * per domain; the verbs nouns ask several), holding the memory regions by key so that every WR's
 * buffer is checked against them. Where the provider asks registration (mr_mode FI_MR_LOCAL: the
 * verbs provider) a region is also fi_mr_reg'd and its descriptor goes with every WR on it.
 */
final class FabricProtectionDomain extends ResourceBase implements ProtectionDomain {
    private final FabricContext context;
    private final Map<Integer, FabricMemoryRegion> regions = new ConcurrentHashMap<>();

    FabricProtectionDomain(FabricContext context) {
        super(context, "PD on " + context.deviceName(), "ibv_dealloc_pd");
        this.context = context;
    }

    FabricContext fabricContext() {
        return context;
    }

    @Override
    public Context context() {
        return context;
    }

    @Override
    public MemoryRegion registerMemory(MemorySegment buffer, Set<AccessFlag> access) {
        return whileOpen(() -> register(buffer, AccessFlag.toMask(access), null));
    }

    @Override
    public MemoryRegion allocateRegistered(long bytes, Set<AccessFlag> access) {
        if (bytes < 1) {
            throw new VerbsException("ibv_reg_mr", Errno.EINVAL, "length must be at least 1, got " + bytes);
        }
        return whileOpen(() -> {
            Arena arena = Arena.ofShared();
            try {
                return register(arena.allocate(bytes, 4096), AccessFlag.toMask(access), arena);
            } catch (RuntimeException e) {
                arena.close();
                throw e;
            }
        });
    }

    private FabricMemoryRegion register(MemorySegment buffer, int access, Arena owned) {
        RegistrationRules.check(buffer, access);
        int key = context.nextNumber();
        long rawMr = 0;
        if (context.registersMemory()) { // fi_mr_reg(3): the provider (verbs) registers it with the device
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
                FabricOps.check("fi_mr_reg", FabricOps.mrReg(context.domain(), buffer, buffer.byteSize(),
                        Fabric.FI_SEND() | Fabric.FI_RECV(), key, out));
                rawMr = out.get(ValueLayout.ADDRESS, 0).address();
            }
        }
        FabricMemoryRegion mr = new FabricMemoryRegion(this, buffer, owned, key, rawMr);
        regions.put(key, mr);
        return mr;
    }

    /**
     * @param lkey    a WR's lkey
     * @param address its SGE's first byte
     * @param length  its SGE's bytes
     * @return the open region with key {@code lkey} that holds {@code [address, address + length)}, or null
     */
    FabricMemoryRegion region(int lkey, long address, int length) {
        FabricMemoryRegion mr = regions.get(lkey);
        return mr != null && mr.covers(address, length) ? mr : null;
    }

    void deregistered(FabricMemoryRegion mr) {
        regions.remove(mr.lkey(), mr);
    }

    @Override
    public SharedReceiveQueue createSrq(SrqAttributes requested) {
        return whileOpen(() -> FabricSharedReceiveQueue.create(this, requested));
    }

    @Override
    public SharedReceiveQueue createXrcSrq(XrcDomain xrcd, CompletionQueue cq, SrqAttributes requested) {
        throw new VerbsException("ibv_create_srq_ex", Errno.EOPNOTSUPP, "libfabric has no XRC");
    }

    @Override
    public QueuePair createQp(QpInitAttributes init) {
        return FabricQueuePair.create(this, init);
    }

    /** {@link #whileOpen(java.util.concurrent.Callable, ResourceBase...)} for this package's factories. */
    <T> T openChild(java.util.concurrent.Callable<T> factory, ResourceBase... alsoOpen) {
        return whileOpen(factory, alsoOpen);
    }

    @Override
    protected void destroy() {
        regions.clear();
    }
}
