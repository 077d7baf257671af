package io.rdma.srq.ra.outbound;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CallSpinTest {
    private static final long MAX = CallSpin.MAX_NANOS;

    @Test
    void theDefaultsAreTwoHundredAndTwentyMicroseconds() {
        assertEquals(200_000, MAX, "srq.call.spinNanos is not set in the tests");
        assertEquals(20_000, CallSpin.BASE_NANOS);
    }

    @Test
    void aNewPeerGetsTheLongSpin() {
        assertEquals(MAX, new CallSpin().nanos());
    }

    @Test
    void aPeerWhoseRepliesComeFastKeepsTheLongSpin() {
        CallSpin spin = new CallSpin();
        for (int i = 0; i < 100; i++) {
            spin.replied(10_000);
        }
        assertEquals(10_000, spin.averageNanos());
        assertEquals(MAX, spin.nanos());
    }

    @Test
    void aSlowPeerGetsTheShortSpinAndFastRepliesWinTheLongOneBack() {
        CallSpin spin = new CallSpin();
        for (int i = 0; i < 100; i++) {
            spin.replied(2_000_000); // a responder that takes 2 ms: spinning 200 µs would be wasted
        }
        assertEquals(CallSpin.BASE_NANOS, spin.nanos());
        int calls = 0;
        while (spin.nanos() != MAX) {
            spin.replied(10_000);
            calls++;
            assertTrue(calls < 100, "the average follows the replies");
        }
        assertTrue(spin.averageNanos() <= MAX / 2);
    }

    @Test
    void oneSlowReplyAmongFastOnesDoesNotEndTheLongSpin() {
        CallSpin spin = new CallSpin();
        for (int i = 0; i < 50; i++) {
            spin.replied(10_000);
        }
        spin.replied(500_000); // one reply 50 times slower: the average moves by an eighth of it
        assertEquals(MAX, spin.nanos());
    }
}
