package io.rdma.srq.ra.support;

import io.rdma.srq.verbs.MemlockLimit;
import io.rdma.srq.verbs.PinnedMemory;
import jakarta.resource.ResourceException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
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
    void theSoftDeviceAndCapIpcLockAreNotLimited() {
        assertDoesNotThrow(() -> new PinningBudget(eightMib).check("a", "soft", 1L << 40));
        assertDoesNotThrow(() -> new PinningBudget(new MemlockLimit(LIMIT, LIMIT, true)).check("a", "ibverbs", 1L << 40));
    }
}
