package io.rdma.srq.ra.support;

import io.rdma.srq.verbs.MemlockLimit;
import io.rdma.srq.verbs.PinnedMemory;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import jakarta.resource.ResourceException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An activation or connection definition the kernel would not pin is refused before it registers. */
class PinningBudgetTest {
    private static final long LIMIT = 8L << 20;
    private final MemlockLimit eightMib = new MemlockLimit(LIMIT, LIMIT, false);

    @Test
    void anIbverbsActivationPastTheLimitIsRefusedNamingTheFix() {
        PinningBudget budget = new PinningBudget(eightMib);
        long room = LIMIT - PinnedMemory.pinnedBytes();
        ResourceException e = assertThrows(ResourceException.class,
                () -> budget.check("activation orders", "ibverbs", room + 4096));
        assertTrue(e.getMessage().contains("activation orders") && e.getMessage().contains("LimitMEMLOCK=")
                && e.getMessage().contains("ulimit -l") && e.getMessage().contains("8388608"), e.getMessage());
        assertDoesNotThrow(() -> budget.check("activation orders", "ibverbs", room));
    }

    @Test
    void aSendRingPastTheLimitIsEnomemNamingTheLimitAndTheSlotProperty() {
        PinningBudget budget = new PinningBudget(eightMib);
        long room = LIMIT - PinnedMemory.pinnedBytes();
        VerbsException e = assertThrows(VerbsException.class, () -> budget.checkRegistration("the send ring of the"
                + " connection to /10.0.0.2:7000", "ibverbs", room + 4096, "the activation's replyBufferSize"));
        assertEquals(Errno.ENOMEM.value(), e.errno());
        assertTrue(e.getMessage().contains("/10.0.0.2:7000") && e.getMessage().contains("ulimit -l")
                && e.getMessage().contains("replyBufferSize"), e.getMessage());
        assertDoesNotThrow(() -> budget.checkRegistration("a ring", "ibverbs", room, "replyBufferSize"));
        assertDoesNotThrow(() -> budget.checkRegistration("a ring", "soft", 1L << 40, "replyBufferSize"));
    }

    @Test
    void theSoftDeviceAndCapIpcLockAreNotLimited() {
        assertDoesNotThrow(() -> new PinningBudget(eightMib).check("a", "soft", 1L << 40));
        assertDoesNotThrow(() -> new PinningBudget(new MemlockLimit(LIMIT, LIMIT, true)).check("a", "ibverbs", 1L << 40));
    }
}
