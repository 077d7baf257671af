package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.inbound.delivery.DeliveryRules;

import io.rdma.srq.api.SrqDeadLetter;
import io.rdma.srq.verbs.testing.LogLines;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A peer that sends messages which all fail delivery cannot flood the log: the dead letters' WARN
 * lines (SRQRA0308, and SRQRA0309 when the observer fails too) are rate-limited, while every letter
 * still reaches the observers.
 */
class DeadLetterFloodLogTest {
    private static final int N = 2_000;

    private static SrqDeadLetter letter(String name, int i) {
        return new SrqDeadLetter(name, i, new byte[] {1}, false, 0, 3, new IllegalStateException("rejected by the MDB"),
                Instant.now());
    }

    @Test
    void aFloodOfDeadLettersLogsABoundedNumberOfLinesAndFiresEveryLetter() {
        String name = "dead-letter-flood-" + System.nanoTime();
        AtomicInteger fired = new AtomicInteger();
        DeliveryRules rules = new DeliveryRules(name, 3, null, (event, loader) -> {
            fired.incrementAndGet();
            throw new IllegalArgumentException("the observer fails too");
        }, getClass().getClassLoader(), false, 1);
        try (LogLines log = LogLines.capture("io.rdma.srq.ra")) {
            for (int i = 0; i < N; i++) {
                rules.deadLetter(letter(name, i));
            }
            int deadLettered = log.containing("SRQRA0308").size();
            int observerFailed = log.containing("SRQRA0309").size();
            assertTrue(deadLettered >= 1 && deadLettered <= 2, deadLettered + " lines");
            assertTrue(observerFailed >= 1 && observerFailed <= 2, observerFailed + " lines");
        }
        assertEquals(N, fired.get());
    }
}
