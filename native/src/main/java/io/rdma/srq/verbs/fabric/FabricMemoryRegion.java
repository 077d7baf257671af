package io.rdma.srq.verbs.fabric;

import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.spi.ResourceBase;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A memory region of the fabric provider. The tcp provider asks no registration (its mr_mode has
 * no FI_MR_LOCAL: it copies through sockets), so there a region is the memory itself and a key the
 * provider hands out; what registration gives on a device — an lkey that names the bytes a WR may
 * touch — the PD checks at post time ({@link FabricProtectionDomain#region}). The verbs provider
 * asks it (FI_MR_LOCAL): the region is fi_mr_reg'd too, and its descriptor ({@link #desc()}) goes
 * with every WR on it.
 */
final class FabricMemoryRegion extends ResourceBase implements MemoryRegion {
    private final FabricProtectionDomain pd;
    private final MemorySegment segment;
    private final Arena owned;
    private final int key;
    /** The fid_mr of fi_mr_reg where the provider asks registration, else 0. */
    private final long rawMr;
    private final MemorySegment desc;

    FabricMemoryRegion(FabricProtectionDomain pd, MemorySegment segment, Arena owned, int key, long rawMr) {
        super(pd, "MR of " + segment.byteSize() + " bytes on " + pd.fabricContext().deviceName(), "ibv_dereg_mr");
        this.pd = pd;
        this.segment = segment;
        this.owned = owned;
        this.key = key;
        this.rawMr = rawMr;
        this.desc = rawMr == 0 ? MemorySegment.NULL : FabricOps.mrDesc(MemorySegment.ofAddress(rawMr));
    }

    /** {@return fi_mr_desc(3) of the registration, the descriptor a WR on this region passes; NULL without one} */
    MemorySegment desc() {
        return desc;
    }

    @Override
    public MemorySegment segment() {
        ensureOpen();
        return segment;
    }

    @Override
    public long address() {
        return segment.address();
    }

    @Override
    public long length() {
        return segment.byteSize();
    }

    @Override
    public int lkey() {
        return key;
    }

    @Override
    public int rkey() {
        return key;
    }

    boolean covers(long address, int length) {
        return !isClosed() && address >= segment.address() && length >= 0
                && address + Integer.toUnsignedLong(length) <= segment.address() + segment.byteSize();
    }

    @Override
    protected void destroy() {
        pd.deregistered(this);
        if (rawMr != 0) {
            FabricOps.close(MemorySegment.ofAddress(rawMr));
        }
        if (owned != null) {
            owned.close();
        }
    }
}
