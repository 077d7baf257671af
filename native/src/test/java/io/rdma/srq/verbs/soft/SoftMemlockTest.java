package io.rdma.srq.verbs.soft;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.PinnedMemory;
import io.rdma.srq.verbs.ProtectionDomain;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The soft device enforces an RLIMIT_MEMLOCK when told to ({@link SoftMemoryRegion#MEMLOCK_PROPERTY}),
 * the way the kernel's ib_umem_get refuses pages past it: ENOMEM, and a message that says which limit
 * and how to raise it (never "out of heap").
 */
class SoftMemlockTest {
    private static final EnumSet<AccessFlag> LOCAL_WRITE = EnumSet.of(AccessFlag.LOCAL_WRITE);

    @AfterEach
    void noLimit() {
        System.clearProperty(SoftMemoryRegion.MEMLOCK_PROPERTY);
    }

    @Test
    void aRegistrationPastTheLimitIsEnomemNamingLimitMemlockAndFreeingMakesRoom() throws Exception {
        try (Context ctx = new SoftProvider().open(SoftProfile.RXE); ProtectionDomain pd = ctx.allocPd()) {
            long before = PinnedMemory.pinnedBytes();
            System.setProperty(SoftMemoryRegion.MEMLOCK_PROPERTY, Long.toString(before + 64 * 1024));
            MemoryRegion first = pd.allocateRegistered(40 * 1024, LOCAL_WRITE);
            assertEquals(before + 40 * 1024, PinnedMemory.pinnedBytes(), "charged in whole pages");

            VerbsException e = assertThrows(VerbsException.class, () -> pd.allocateRegistered(32 * 1024, LOCAL_WRITE));
            assertTrue(e.is(Errno.ENOMEM), e.getMessage());
            assertTrue(e.getMessage().contains("RLIMIT_MEMLOCK") && e.getMessage().contains("LimitMEMLOCK=")
                    && e.getMessage().contains("ulimit -l"), e.getMessage());
            assertEquals(before + 40 * 1024, PinnedMemory.pinnedBytes(), "a refused registration charges nothing");

            MemoryRegion partial = pd.allocateRegistered(24 * 1024 - 1, LOCAL_WRITE); // 6 pages: exactly fits
            assertEquals(before + 64 * 1024, PinnedMemory.pinnedBytes());
            partial.close();
            first.close();
            assertEquals(before, PinnedMemory.pinnedBytes(), "deregistration gives the pages back");
            pd.allocateRegistered(64 * 1024, LOCAL_WRITE).close();
        }
    }
}
