package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;

import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.ra.testing.SoftActivationTest;
import io.rdma.srq.ra.testing.SoftSender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Delivery on the poller's thread (maxConcurrency 1, ordering none; {@link io.rdma.srq.ra.inbound.delivery.Poller}'s class comment):
 * where it applies, and that it keeps what a pool thread gives: arrival order, one endpoint at a
 * time, accepts and other connections' arrivals while an endpoint is slow, and a deactivation that
 * returns at its drain timeout and bound with nothing lost silently.
 */
class InlineDeliveryTest extends SoftActivationTest {
    private static final String POLLER = "srq-poller-";

    @ParameterizedTest(name = "maxConcurrency={0}, ordering={1}: on the poller's thread {2}")
    @CsvSource({"1, none, true", "2, none, false", "1, connection, false"})
    void theBatchRunsOnThePollersThreadOnlyWithOneEndpointAndNoLanes(String maxConcurrency, String ordering,
                                                                     boolean inline) throws Exception {
        SrqActivation a = activate("srqMaxWr", "256", "srqLimit", "0", "bufferSize", "64", "maxConcurrency",
                maxConcurrency, "ordering", ordering);
        Set<String> threads = ConcurrentHashMap.newKeySet();
        endpoints.behaviour(c -> threads.add(Thread.currentThread().getName()));
        SoftSender s = sender(a, 64);
        for (long seq = 0; seq < 200; seq++) {
            s.send(seq, 64, null);
        }
        await(() -> endpoints.received.size() == 200, "200 deliveries");
        assertEquals(inline, threads.stream().allMatch(t -> t.startsWith(POLLER)), "delivering threads: " + threads);
    }

    @Test
    void onThePollersThreadMessagesComeInArrivalOrderOneAtATime() throws Exception {
        SrqActivation a = activate("srqMaxWr", "256", "srqLimit", "0", "bufferSize", "64", "maxConcurrency", "1");
        List<Long> order = new CopyOnWriteArrayList<>();
        endpoints.behaviour(c -> order.add(c.payload().order(ByteOrder.nativeOrder()).getLong(0)));
        SoftSender s = sender(a, 64);
        int n = 2_000;
        for (long seq = 0; seq < n; seq++) {
            s.send(seq, 64, null);
        }
        await(() -> order.size() == n, n + " deliveries");
        List<Long> expected = new ArrayList<>();
        for (long seq = 0; seq < n; seq++) {
            expected.add(seq);
        }
        assertEquals(expected, order, "one connection's messages in the order sent");
        assertEquals(1, endpoints.maxConcurrent.get(), "one endpoint at a time");
    }

    @Test
    void aSlowEndpointOnThePollersThreadHoldsUpNoAcceptAndLosesNoArrival() throws Exception {
        SrqActivation a = activate("srqMaxWr", "256", "srqLimit", "0", "bufferSize", "64", "maxConcurrency", "1");
        endpoints.close(); // the endpoint blocks in onReceive until the gate opens
        SoftSender first = sender(a, 64);
        first.send(1, 64, null);
        await(() -> endpoints.distinctSequences() == 1, "the first message in onReceive");
        SoftSender second = sender(a, 64); // accepted while the poller's thread is in onReceive
        await(() -> a.statistics().connections() == 2, "the second connection accepted");
        for (long seq = 100; seq < 110; seq++) {
            second.send(seq, 64, null);
        }
        second.drain(Duration.ofSeconds(10));
        assertEquals(10, second.acknowledged, "the second connection's sends acknowledged: they wait in the SRQ");
        Thread.sleep(100);
        assertEquals(1, endpoints.distinctSequences(), "one endpoint: nothing else delivered meanwhile, as with a pool thread");
        endpoints.open();
        await(() -> endpoints.received.size() == 11, "every message delivered once the endpoint returned");
        assertEquals(11, endpoints.distinctSequences());
    }

    @Test
    void deactivationUnderABlockedEndpointReturnsAtItsBoundAndCountsTheRestUndelivered() throws Exception {
        SrqActivationSpec spec = spec("srqMaxWr", "64", "srqLimit", "0", "bufferSize", "64", "maxConcurrency", "1",
                "drainTimeout", "100");
        SrqActivation a = activate(spec);
        endpoints.close();
        SoftSender s = sender(a, 64);
        for (long seq = 0; seq < 20; seq++) {
            s.send(seq, 64, null);
        }
        s.drain(Duration.ofSeconds(10));
        await(() -> endpoints.distinctSequences() == 1, "the first message in onReceive");
        long start = System.nanoTime();
        a.stop(Duration.ofMillis(300));
        long took = System.nanoTime() - start;
        assertTrue(took < Duration.ofSeconds(2).toNanos(), "returned after drainTimeout and bound, not after the"
                + " endpoint: " + took / 1_000_000 + " ms");
        assertFalse(a.freed(), "nothing freed under the running endpoint");
        endpoints.open();
        await(a::freed, "the natives freed once the endpoint returned");
        ActivationStatistics st = a.statistics();
        assertEquals(1, st.delivered(), "the message in onReceive: " + st);
        assertEquals(s.acknowledged, st.delivered() + st.undelivered(), "the rest counted undelivered: " + st);
    }
}
