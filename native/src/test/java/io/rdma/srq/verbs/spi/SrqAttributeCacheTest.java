package io.rdma.srq.verbs.spi;

import io.rdma.srq.api.SrqAttributes;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** ibv_query_srq(3) FAQ: max_wr/max_sge cached until a resize, srq_limit always live. */
class SrqAttributeCacheTest {
    private final AtomicInteger queries = new AtomicInteger();
    private final AtomicReference<SrqAttributes> device = new AtomicReference<>(new SrqAttributes(2047, 1, 7));
    private final SrqAttributeCache cache = new SrqAttributeCache(() -> {
        queries.incrementAndGet();
        return device.get();
    }, new SrqAttributes(2047, 1, 7));

    @Test
    void maxWrAndMaxSgeAreServedWithoutAQuery() {
        assertEquals(2047, cache.maxWr());
        assertEquals(1, cache.maxSge());
        assertEquals(0, queries.get());
    }

    @Test
    void srqLimitIsAlwaysReadLiveBecauseTheDeviceZeroesItWhenTheEventFires() throws Exception {
        assertEquals(7, cache.srqLimit());
        device.set(new SrqAttributes(2047, 1, 0));
        assertEquals(0, cache.srqLimit());
        assertEquals(2, queries.get());
    }

    @Test
    void aResizeRefreshesTheCachedSizeWithTheRoundedValue() throws Exception {
        device.set(new SrqAttributes(8191, 1, 0)); // rxe: resize to 4096 reads back 8191
        assertEquals(2047, cache.maxWr(), "not refreshed before the resize is reported");
        cache.resized();
        assertEquals(8191, cache.maxWr());
        assertEquals(1, queries.get());
    }
}
