package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.MemlockLimit;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.PinnedMemory;
import io.rdma.srq.verbs.VerbsLogger;
import io.rdma.srq.verbs.ffi.ibverbs.IbVerbs;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_mr;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * {@link MemoryRegion} over {@code struct ibv_mr}. Holds the registered segment strongly, so a
 * GC-managed segment cannot be freed while the device may write to it (driver note 14); memory it
 * allocated itself is freed only after ibv_dereg_mr succeeded, and kept for good when it failed
 * ({@link #release}).
 */
final class IbvMemoryRegion extends IbvResource implements MemoryRegion {
    private static final MethodHandle REG = NativeCall.capturing(
            IbVerbs.ibv_reg_mr$address(), IbVerbs.ibv_reg_mr$descriptor());
    private static final MethodHandle DEREG = NativeCall.capturing(
            IbVerbs.ibv_dereg_mr$address(), IbVerbs.ibv_dereg_mr$descriptor());
    private static final long PAGE = 4096;

    private final MemorySegment buffer;
    private final Arena owned;
    private final int lkey;
    private final int rkey;
    private final long charged;

    private IbvMemoryRegion(IbvProtectionDomain pd, MemorySegment mr, MemorySegment buffer, Arena owned) {
        super(pd, "MR of " + buffer.byteSize() + " bytes on " + pd.ibvContext().deviceName(), "ibv_dereg_mr", mr,
                ibv_mr.sizeof());
        this.buffer = buffer;
        this.owned = owned;
        this.lkey = ibv_mr.lkey(handle());
        this.rkey = ibv_mr.rkey(handle());
        this.charged = PinnedMemory.registered(buffer.byteSize());
    }

    static IbvMemoryRegion register(IbvProtectionDomain pd, MemorySegment buffer, int access, Arena owned)
            throws VerbsException {
        if (!buffer.isNative() || buffer.byteSize() == 0) {
            throw new VerbsException("ibv_reg_mr", Errno.EINVAL,
                    "the buffer must be a native segment of ≥ 1 byte, got " + buffer);
        }
        String detail = buffer.byteSize() + " bytes, access 0x" + Integer.toHexString(access);
        MemorySegment mr;
        try {
            mr = NativeCall.pointer("ibv_reg_mr", detail, REG, null, pd.handle(), buffer, buffer.byteSize(), access);
        } catch (VerbsException e) {
            if (e.is(Errno.ENOMEM) || e.is(Errno.EPERM)) {
                // the kernel refuses pages past RLIMIT_MEMLOCK with ENOMEM (ib_umem_get); say so, not "heap"
                throw new VerbsException("ibv_reg_mr", e.errno(), detail + ": "
                        + MemlockLimit.ofThisProcess().describe(PinnedMemory.pinnedBytes()));
            }
            throw e;
        }
        return new IbvMemoryRegion(pd, mr, buffer, owned);
    }

    static IbvMemoryRegion allocate(IbvProtectionDomain pd, long bytes, int access) throws VerbsException {
        if (bytes < 1) {
            throw new VerbsException("ibv_reg_mr", Errno.EINVAL, "bytes must be ≥ 1, got " + bytes);
        }
        Arena arena = Arena.ofShared();
        try {
            return register(pd, arena.allocate(bytes, PAGE), access, arena);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    @Override
    public MemorySegment segment() {
        ensureOpen();
        return buffer;
    }

    @Override
    public long address() {
        ensureOpen();
        return buffer.address();
    }

    @Override
    public long length() {
        ensureOpen();
        return buffer.byteSize();
    }

    @Override
    public int lkey() {
        ensureOpen();
        return lkey;
    }

    @Override
    public int rkey() {
        ensureOpen();
        return rkey;
    }

    /** {@return the start address, also after close (a send naming a closed MR fails on the device)} */
    long start() {
        return buffer.address();
    }

    /** {@return the length in bytes, also after close} */
    long size() {
        return buffer.byteSize();
    }

    /** {@return the lkey, also after close} */
    int key() {
        return lkey;
    }

    @Override
    protected void destroy() throws VerbsException {
        release(kind(), () -> NativeCall.status("ibv_dereg_mr", kind(), DEREG, null, raw()), buffer, owned, charged);
    }

    /** The native deregistration, ibv_dereg_mr(3). */
    @FunctionalInterface
    interface Deregistration {
        /** @throws VerbsException its errno (e.g. EBUSY: memory windows still bound, EINVAL) */
        void run() throws VerbsException;
    }

    /**
     * Deregisters, then frees the memory the MR allocated itself and uncharges its pages. A failed
     * deregistration keeps the memory — the device may still write there — for the life of the
     * process: never freed, kept reachable, its pages still counted pinned ({@link PinnedMemory}),
     * logged once (SRQVB0003); the failure is rethrown.
     *
     * @param kind    the MR, for the log
     * @param dereg   the native deregistration
     * @param buffer  the registered memory
     * @param owned   the arena of memory the MR allocated itself, or null (the caller's memory)
     * @param charged the pinned bytes to uncharge after a successful deregistration
     * @throws VerbsException the deregistration's failure
     */
    static void release(String kind, Deregistration dereg, MemorySegment buffer, Arena owned, long charged)
            throws VerbsException {
        boolean deregistered = false;
        try {
            dereg.run();
            deregistered = true;
        } finally {
            if (deregistered) {
                PinnedMemory.released(charged);
                if (owned != null) {
                    owned.close();
                }
            } else {
                KEPT.add(new Kept(buffer, owned));
                VerbsLogger.LOG.memoryKeptAfterFailedDeregistration(kind, buffer.byteSize());
            }
        }
    }

    /** Memory of MRs whose deregistration failed: held for the life of the process, never freed. */
    private static final java.util.Queue<Kept> KEPT = new java.util.concurrent.ConcurrentLinkedQueue<>();

    /** A failed deregistration's memory and its arena, kept reachable. */
    private record Kept(MemorySegment buffer, Arena owned) {
    }

    /** {@return bytes of memory kept because their MR's deregistration failed, in this process} */
    static long keptBytes() {
        return KEPT.stream().mapToLong(k -> k.buffer().byteSize()).sum();
    }
}
