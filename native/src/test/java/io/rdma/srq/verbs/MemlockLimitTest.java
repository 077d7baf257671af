package io.rdma.srq.verbs;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link MemlockLimit} reads proc(5)'s limits and CapEff as Linux writes them. */
class MemlockLimitTest {
    private static final String LIMITS = """
            Limit                     Soft Limit           Hard Limit           Units
            Max open files            1048576              1048576              files
            Max locked memory         8388608              16777216             bytes
            Max address space         unlimited            unlimited            bytes
            """;
    private static final String ROOT = "Name:\tjava\nCapEff:\t000001fffeffffff\n";
    private static final String USER = "Name:\tjava\nCapEff:\t0000000000000000\n";

    @Test
    void anUnprivilegedProcessIsHeldToTheSoftLimitInWholePages() {
        MemlockLimit l = MemlockLimit.parse(LIMITS, USER);
        assertEquals(new MemlockLimit(8388608, 16777216, false), l);
        assertEquals(8388608, l.allowedBytes());
        assertTrue(l.fits(0, 8388608));
        assertFalse(l.fits(1, 8388608), "one byte already pinned costs a page");
        assertTrue(l.describe(4096).contains("8388608 bytes") && l.describe(4096).contains("LimitMEMLOCK="));
    }

    @Test
    void capIpcLockLiftsTheLimit() {
        MemlockLimit l = MemlockLimit.parse(LIMITS, ROOT);
        assertTrue(l.capIpcLock());
        assertEquals(MemlockLimit.UNLIMITED, l.allowedBytes());
        assertTrue(l.fits(Long.MAX_VALUE / 2, Long.MAX_VALUE / 4));
    }

    @Test
    void unlimitedIsRead() {
        MemlockLimit l = MemlockLimit.parse(LIMITS.replace("8388608              16777216", "unlimited unlimited"), USER);
        assertEquals(MemlockLimit.UNLIMITED, l.allowedBytes());
    }

    @Test
    void aMissingLineIsAClearError() {
        assertThrows(IllegalArgumentException.class, () -> MemlockLimit.parse("Limit Soft Hard Units\n", USER));
    }

    @Test
    void thisProcessCanBeRead() {
        MemlockLimit l = MemlockLimit.ofThisProcess();
        assertTrue(l.softLimitBytes() > 0 && l.hardLimitBytes() >= l.softLimitBytes(), l.toString());
    }
}
