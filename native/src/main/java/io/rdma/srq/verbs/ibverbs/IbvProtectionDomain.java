package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.api.AccessFlag;
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
import io.rdma.srq.verbs.ffi.ibverbs.IbVerbs;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_pd;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Set;

/** {@link ProtectionDomain} over {@code struct ibv_pd}. */
final class IbvProtectionDomain extends IbvResource implements ProtectionDomain {
    private static final MethodHandle ALLOC = NativeCall.capturing(
            IbVerbs.ibv_alloc_pd$address(), IbVerbs.ibv_alloc_pd$descriptor());
    private static final MethodHandle DEALLOC = NativeCall.capturing(
            IbVerbs.ibv_dealloc_pd$address(), IbVerbs.ibv_dealloc_pd$descriptor());

    private final IbvContext context;

    private IbvProtectionDomain(IbvContext context, MemorySegment pd) {
        super(context, "PD on " + context.deviceName(), "ibv_dealloc_pd", pd, ibv_pd.sizeof());
        this.context = context;
    }

    static IbvProtectionDomain allocate(IbvContext context) throws VerbsException {
        MemorySegment pd = NativeCall.pointer("ibv_alloc_pd", context.deviceName(), ALLOC, null, context.handle());
        return new IbvProtectionDomain(context, pd);
    }

    @Override
    public Context context() {
        ensureOpen();
        return context;
    }

    IbvContext ibvContext() {
        return context;
    }

    @Override
    public MemoryRegion registerMemory(MemorySegment buffer, Set<AccessFlag> access) throws VerbsException {
        return whileOpen(() -> IbvMemoryRegion.register(this, buffer, AccessFlag.toMask(access), null));
    }

    @Override
    public MemoryRegion allocateRegistered(long bytes, Set<AccessFlag> access) throws VerbsException {
        return whileOpen(() -> IbvMemoryRegion.allocate(this, bytes, AccessFlag.toMask(access)));
    }

    @Override
    public SharedReceiveQueue createSrq(SrqAttributes requested) throws VerbsException {
        return whileOpen(() -> IbvSharedReceiveQueue.create(this, requested));
    }

    @Override
    public SharedReceiveQueue createXrcSrq(XrcDomain xrcd, CompletionQueue cq, SrqAttributes requested)
            throws VerbsException {
        return whileOpen(() -> IbvSharedReceiveQueue.createXrc(this, (IbvXrcDomain) xrcd, (IbvCompletionQueue) cq,
                requested));
    }

    @Override
    public QueuePair createQp(QpInitAttributes init) throws VerbsException {
        ensureOpen();
        // the CQs and the SRQ are held open too: a concurrent close of one of them cannot interleave
        return whileOpen(() -> IbvQueuePair.create(this, init), (IbvCompletionQueue) init.sendCq(),
                (IbvCompletionQueue) init.recvCq(), (IbvSharedReceiveQueue) init.srq());
    }

    @Override
    protected void destroy() throws VerbsException {
        NativeCall.status("ibv_dealloc_pd", kind(), DEALLOC, null, raw());
    }
}
