package io.rdma.srq.api;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Modifier;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SrqLimitReached and ActivationStatistics can gain fields: final classes built by the adapter, equal by value. */
class EvolvableEventTypesTest {
    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void neitherIsARecordNorHasAPublicConstructor() {
        for (Class<?> c : new Class<?>[] {SrqLimitReached.class, ActivationStatistics.class}) {
            assertFalse(c.isRecord(), c.getName());
            assertTrue(Modifier.isFinal(c.getModifiers()), c.getName());
            assertEquals(0, c.getConstructors().length, c.getName() + " has a public constructor");
        }
    }

    @Test
    void limitEventIsEqualByValueAndNamesItsFields() {
        SrqLimitReached a = limit(8);
        assertEquals(a, limit(8));
        assertEquals(a.hashCode(), limit(8).hashCode());
        assertNotEquals(a, limit(9));
        assertEquals("orders", a.srqName());
        assertEquals("soft0", a.device());
        assertEquals(8, a.limit());
        assertEquals(3, a.outstanding());
        assertEquals(T, a.time());
        assertEquals("SrqLimitReached[srqName=orders, device=soft0, limit=8, outstanding=3, time=" + T + "]",
                a.toString());
    }

    @Test
    void limitEventRefusesAMissingName() {
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> SrqLimitReached.builder().device("d").time(T).build());
        assertEquals("srqName", e.getMessage());
    }

    @Test
    void statisticsCopyTheRejectionMapAndCompareEveryCounter() {
        Map<String, Long> reasons = new LinkedHashMap<>();
        reasons.put("NO_TOKEN", 2L);
        reasons.put("EXPIRED", 1L);
        ActivationStatistics s = stats(5, reasons);
        reasons.put("REPLAYED", 7L);
        assertEquals(2, s.rejectedByReason().size());
        assertEquals(3, s.rejected());
        assertThrows(UnsupportedOperationException.class, () -> s.rejectedByReason().put("X", 1L));
        assertEquals(s, stats(5, Map.of("NO_TOKEN", 2L, "EXPIRED", 1L)));
        assertNotEquals(s, stats(6, Map.of("NO_TOKEN", 2L, "EXPIRED", 1L)));
        assertEquals(5, s.delivered());
        assertTrue(s.paused());
        assertTrue(s.toString().startsWith("ActivationStatistics[srqName=orders, device=soft0, posted=0"),
                s.toString());
        assertTrue(s.toString().contains("rejectedByReason={NO_TOKEN=2, EXPIRED=1}"), s.toString());
    }

    private static SrqLimitReached limit(int limit) {
        return SrqLimitReached.builder().srqName("orders").device("soft0").limit(limit).outstanding(3).time(T).build();
    }

    private static ActivationStatistics stats(long delivered, Map<String, Long> reasons) {
        return ActivationStatistics.builder().srqName("orders").device("soft0").delivered(delivered).paused(true)
                .rejectedByReason(reasons).build();
    }
}
