package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.PinnedMemory;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An MR's close ({@link IbvMemoryRegion#release}, what ibv_dereg_mr(3) is followed by): the memory
 * the MR allocated is freed and its pages uncharged only once the deregistration succeeded; when it
 * fails the device may still write there, so the memory stays allocated and charged, and the
 * failure is rethrown. No device needed: the deregistration is the test's.
 */
class FailedDeregistrationKeepsMemoryTest {

    @Test
    void aFailedDeregistrationKeepsTheMemoryAllocatedAndCharged() {
        Arena owned = Arena.ofShared();
        MemorySegment buffer = owned.allocate(8192, 4096);
        long charged = PinnedMemory.registered(buffer.byteSize());
        long pinned = PinnedMemory.pinnedBytes();
        long keptBefore = IbvMemoryRegion.keptBytes();
        VerbsException busy = new VerbsException("ibv_dereg_mr", Errno.EBUSY, "memory windows still bound");

        VerbsException thrown = assertThrows(VerbsException.class, () -> IbvMemoryRegion.release("MR of 8192 bytes",
                () -> {
                    throw busy;
                }, buffer, owned, charged));

        assertSame(busy, thrown);
        assertTrue(owned.scope().isAlive(), "the memory is not freed under the device");
        buffer.set(ValueLayout.JAVA_LONG, 0, 42); // still usable memory: a device write lands in it, not in a reused page
        assertEquals(pinned, PinnedMemory.pinnedBytes(), "its pages stay counted pinned");
        assertEquals(keptBefore + 8192, IbvMemoryRegion.keptBytes(), "counted as kept");
    }

    @Test
    void aSuccessfulDeregistrationFreesTheMemoryAndItsCharge() throws VerbsException {
        Arena owned = Arena.ofShared();
        MemorySegment buffer = owned.allocate(4096, 4096);
        long charged = PinnedMemory.registered(buffer.byteSize());
        long pinned = PinnedMemory.pinnedBytes();

        IbvMemoryRegion.release("MR of 4096 bytes", () -> {
        }, buffer, owned, charged);

        assertFalse(owned.scope().isAlive());
        assertEquals(pinned - charged, PinnedMemory.pinnedBytes());
    }
}
