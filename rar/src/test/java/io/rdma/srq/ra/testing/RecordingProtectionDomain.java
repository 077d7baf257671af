package io.rdma.srq.ra.testing;

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

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A {@link ProtectionDomain} that hands every call to a real one and records the access flags of
 * each memory registration (ibv_reg_mr(3)), so a test can say with which rights the adapter
 * registers what; a test may stand in for the regions it allocates.
 */
public final class RecordingProtectionDomain implements ProtectionDomain {
    private final ProtectionDomain pd;
    private final List<Set<AccessFlag>> registrations = new ArrayList<>();
    private final UnaryOperator<MemoryRegion> allocated;

    /** @param pd the protection domain every call goes to */
    public RecordingProtectionDomain(ProtectionDomain pd) {
        this(pd, UnaryOperator.identity());
    }

    /**
     * @param pd        the protection domain every call goes to
     * @param allocated what {@link #allocateRegistered} returns in place of the region it allocated
     *                  (e.g. one that holds a thread up when it reads the memory)
     */
    public RecordingProtectionDomain(ProtectionDomain pd, UnaryOperator<MemoryRegion> allocated) {
        this.pd = pd;
        this.allocated = allocated;
    }

    /** @return the access flags of every registration so far, in order */
    public synchronized List<Set<AccessFlag>> registrations() {
        return List.copyOf(registrations);
    }

    private synchronized void record(Set<AccessFlag> access) {
        registrations.add(access.isEmpty() ? EnumSet.noneOf(AccessFlag.class) : EnumSet.copyOf(access));
    }

    @Override
    public Context context() {
        return pd.context();
    }

    @Override
    public MemoryRegion registerMemory(MemorySegment buffer, Set<AccessFlag> access) throws VerbsException {
        record(access);
        return pd.registerMemory(buffer, access);
    }

    @Override
    public MemoryRegion allocateRegistered(long bytes, Set<AccessFlag> access) throws VerbsException {
        record(access);
        return allocated.apply(pd.allocateRegistered(bytes, access));
    }

    @Override
    public SharedReceiveQueue createSrq(SrqAttributes requested) throws VerbsException {
        return pd.createSrq(requested);
    }

    @Override
    public SharedReceiveQueue createXrcSrq(XrcDomain xrcd, CompletionQueue cq, SrqAttributes requested)
            throws VerbsException {
        return pd.createXrcSrq(xrcd, cq, requested);
    }

    @Override
    public QueuePair createQp(QpInitAttributes init) throws VerbsException {
        return pd.createQp(init);
    }

    @Override
    public void close() throws VerbsException {
        pd.close();
    }

    @Override
    public boolean isClosed() {
        return pd.isClosed();
    }
}
