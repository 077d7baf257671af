package io.rdma.srq.ra.inbound;

import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.WorkCompletionArray;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_wc;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Receive completions whose wr_id or byte_len the SRQ cannot have produced — what a faulty device or
 * driver could write — are counted as error completions and never delivered, the poller goes on, and
 * no buffer is reposted that is not a posted one of the SRQ: the traffic after them is delivered
 * intact. The soft device writes only good completions, so the CQ the poller polls is wrapped to
 * rewrite chosen ones ({@link PollerRig}).
 */
class BadCompletionTest {
    private static final long WR_ID = ibv_wc.wr_id$offset();
    private static final long BYTE_LEN = ibv_wc.byte_len$offset();
    private static final long SIZE = ibv_wc.sizeof();
    private static final int BUFFERS = 64;

    private final TestEndpointFactory endpoints = new TestEndpointFactory();
    /** What to write into the n-th completion polled (from 1), given the wr_ids polled before it. */
    private final Map<Integer, BiConsumer<MemorySegment, List<Long>>> lies = new HashMap<>();

    @Test
    void aWrIdOrByteLenTheSrqNeverGaveIsCountedAsAnErrorAndTheLoopGoesOn() throws Exception {
        lies.put(2, (wc, before) -> wc.set(ValueLayout.JAVA_LONG, WR_ID, 1_000_000L)); // beyond the slab
        lies.put(3, (wc, before) -> wc.set(ValueLayout.JAVA_LONG, WR_ID, -1L));
        lies.put(4, (wc, before) -> wc.set(ValueLayout.JAVA_LONG, WR_ID, before.getFirst())); // completed already
        lies.put(5, (wc, before) -> wc.set(ValueLayout.JAVA_INT, BYTE_LEN, 65)); // bufferSize 64
        lies.put(6, (wc, before) -> wc.set(ValueLayout.JAVA_INT, BYTE_LEN, -1)); // 4 GiB - 1
        try (PollerRig rig = new PollerRig(endpoints, true, pd -> pd, Lying::new, "srqMaxWr", String.valueOf(BUFFERS),
                "pollMode", "busy")) {
            for (long seq = 1; seq <= 7; seq++) {
                rig.send(seq);
            }
            turnUntil(rig, 7);
            assertEquals(5, rig.poller.figures().errors(), "the five bad completions counted as error completions");
            assertEquals(2, rig.poller.figures().delivered());
            assertEquals(List.of(1L, 7L), delivered(), "only the good ones delivered");

            // three buffers went with the bad wr_ids; the others, and no other, are posted again: two rounds
            // through every one of them deliver each message intact, once
            int more = 2 * BUFFERS;
            for (long seq = 8; seq < 8 + more; seq++) {
                rig.send(seq);
                turnUntil(rig, seq);
            }
            List<Long> expected = new ArrayList<>(List.of(1L));
            for (long seq = 7; seq < 8 + more; seq++) {
                expected.add(seq);
            }
            assertEquals(expected, delivered(), "every later message intact, once");
            assertEquals(5, rig.poller.figures().errors());
        }
        assertEquals(List.of(), endpoints.violations);
    }

    private static void turnUntil(PollerRig rig, long completed) throws Exception {
        while (rig.poller.figures().completed() < completed) {
            rig.turn();
        }
    }

    private List<Long> delivered() {
        return endpoints.received.stream()
                .map(r -> ByteBuffer.wrap(r.payload()).order(ByteOrder.nativeOrder()).getLong(0)).toList();
    }

    /** The CQ as a faulty device would fill it: the chosen completions rewritten after each poll. */
    private final class Lying implements CompletionQueue {
        private final CompletionQueue cq;
        private final List<Long> polled = new ArrayList<>();

        Lying(CompletionQueue cq) {
            this.cq = cq;
        }

        @Override
        public int poll(WorkCompletionArray wcs, int maxEntries) throws VerbsException {
            int n = cq.poll(wcs, maxEntries);
            for (int i = 0; i < n; i++) {
                MemorySegment wc = wcs.segment().asSlice(i * SIZE, SIZE);
                BiConsumer<MemorySegment, List<Long>> lie = lies.get(polled.size() + 1);
                if (lie != null) {
                    lie.accept(wc, polled);
                }
                polled.add(wcs.wrId(i));
            }
            return n;
        }

        @Override
        public int cqe() {
            return cq.cqe();
        }

        @Override
        public void requestNotify(boolean solicitedOnly) throws VerbsException {
            cq.requestNotify(solicitedOnly);
        }

        @Override
        public void close() throws VerbsException {
            cq.close();
        }

        @Override
        public boolean isClosed() {
            return cq.isClosed();
        }
    }
}
