package io.rdma.srq.verbs.soft;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.MemlockLimit;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.PinnedMemory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * {@link MemoryRegion} of a soft device. The device reaches the memory only through the registered
 * segment (never through a raw address), so a write into memory whose arena was closed throws
 * instead of corrupting the heap; it holds the segment strongly (driver note 14: no GC of memory the
 * device may write).
 *
 * <p>Keys: lkey = rkey = {@code slot << 8 | tag}, unique on the device while registered; a receive
 * SGE is checked against the MR its lkey names (same PD, LOCAL_WRITE, inside the range) when the
 * data arrives, as rxe's copy_data does.
 *
 * <p>Pinning: the soft device pins nothing, but it charges every registration to {@link PinnedMemory}
 * and, when the system property {@value #MEMLOCK_PROPERTY} gives a limit in bytes, refuses one that
 * would pass it with ENOMEM as the kernel's ib_umem_get does for RLIMIT_MEMLOCK — so a test, or an
 * operator rehearsing a deployment, sees the failure a real device would give.
 */
final class SoftMemoryRegion extends SoftResource implements MemoryRegion {
    private static final long PAGE = 4096;
    /** System property: the RLIMIT_MEMLOCK the soft device enforces, in bytes (unset: none). */
    public static final String MEMLOCK_PROPERTY = "io.rdma.srq.soft.memlockBytes";

    private final SoftProtectionDomain pd;
    private final SoftDevice device;
    private final MemorySegment buffer;
    private final long address;
    private final long length;
    private final int access;
    private final int lkey;
    private final Arena owned;
    private final long charged;

    private SoftMemoryRegion(SoftProtectionDomain pd, MemorySegment buffer, int access, int lkey, Arena owned,
                             long charged) {
        super(pd, "MR of " + buffer.byteSize() + " bytes on " + pd.softContext().deviceName(), "ibv_dereg_mr");
        this.pd = pd;
        this.device = pd.softContext().device();
        this.buffer = buffer;
        this.address = buffer.address();
        this.length = buffer.byteSize();
        this.access = access;
        this.lkey = lkey;
        this.owned = owned;
        device.publish(this);
        SoftFabric.REGISTERED.addAndGet(length);
        this.charged = charged;
    }

    static SoftMemoryRegion register(SoftProtectionDomain pd, MemorySegment buffer, int access, Arena owned)
            throws VerbsException {
        io.rdma.srq.verbs.spi.RegistrationRules.check(buffer, access);
        long charged = charge(buffer.byteSize(), access);
        try {
            int key = pd.softContext().device().reserveKey();
            return new SoftMemoryRegion(pd, buffer, access, key, owned, charged);
        } catch (RuntimeException e) {
            PinnedMemory.released(charged);
            throw e;
        }
    }

    /** Charges the pages to {@link PinnedMemory}, refusing them past {@value #MEMLOCK_PROPERTY}. */
    private static long charge(long bytes, int access) throws VerbsException {
        Long limit = Long.getLong(MEMLOCK_PROPERTY);
        long charged = PinnedMemory.registerWithin(bytes, limit == null ? MemlockLimit.UNLIMITED : limit);
        if (charged < 0) {
            throw new VerbsException("ibv_reg_mr", Errno.ENOMEM, bytes + " bytes, access 0x"
                    + Integer.toHexString(access) + ": "
                    + new MemlockLimit(limit, limit, false).describe(PinnedMemory.pinnedBytes()));
        }
        return charged;
    }

    static SoftMemoryRegion allocate(SoftProtectionDomain pd, long bytes, int access) throws VerbsException {
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

    SoftProtectionDomain pd() {
        return pd;
    }

    /** {@return the memory the device reads and writes} */
    MemorySegment buffer() {
        return buffer;
    }

    /** {@return the start address, also after close (for the device's checks)} */
    long start() {
        return address;
    }

    /** {@return the length in bytes, also after close (for the device's checks)} */
    long size() {
        return length;
    }

    /** {@return the lkey, also after close (the device's key table)} */
    int key() {
        return lkey;
    }

    /** {@return whether receives may write here (IBV_ACCESS_LOCAL_WRITE)} */
    boolean localWrite() {
        return (access & AccessFlag.LOCAL_WRITE.mask()) != 0;
    }

    @Override
    public MemorySegment segment() {
        checkOpen();
        return buffer;
    }

    @Override
    public long address() {
        checkOpen();
        return address;
    }

    @Override
    public long length() {
        checkOpen();
        return length;
    }

    @Override
    public int lkey() {
        checkOpen();
        return lkey;
    }

    /** {@return the lkey (rxe and mlx5 hand out the same value)} */
    @Override
    public int rkey() {
        checkOpen();
        return lkey;
    }

    @Override
    protected void release() {
        SoftFabric.REGISTERED.addAndGet(-length);
        PinnedMemory.released(charged);
        try {
            device.withdraw(this);
        } finally {
            if (owned != null) {
                owned.close();
            }
        }
    }
}
