package io.rdma.srq.ra.support;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A flood of events writes one line per key and interval, counts every event, and the next line says how many were not written. */
class RateLimitedLogTest {
    @Test
    void aFloodWritesOneLinePerIntervalAndTheNextLineSaysHowManyWereNot() {
        AtomicLong nanos = new AtomicLong(Long.MAX_VALUE - 5_000_000_000L); // across nanoTime's wrap
        RateLimitedLog<String> log = new RateLimitedLog<>(Duration.ofSeconds(10), nanos::get);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            log.event("a", (notLogged, seconds) -> lines.add("a " + notLogged + " " + seconds));
            nanos.addAndGet(100_000);      // 10,000 events in 1 s
        }
        assertEquals(List.of("a 0 10"), lines);
        assertEquals(10_000, log.events("a"));
        assertTrue(log.event("b", (notLogged, seconds) -> lines.add("b " + notLogged)), "per key");
        assertFalse(log.event("a", (notLogged, seconds) -> lines.add("a " + notLogged)));
        nanos.addAndGet(9_000_000_000L);
        assertTrue(log.event("a", (notLogged, seconds) -> lines.add("a " + notLogged)));
        assertEquals(List.of("a 0 10", "b 0", "a 10000"), lines, "the 9,999 + 1 events in between");
        assertEquals(10_002, log.events("a"));
    }
}
