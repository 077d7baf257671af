package io.rdma.srq.ra.inbound;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.RetainedMessage;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.testing.RecordingProtectionDomain;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import io.rdma.srq.verbs.MemoryRegion;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static io.rdma.srq.ra.testing.SoftActivationTest.await;
import static io.rdma.srq.ra.testing.SoftActivationTest.awaitQuietly;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ReceiveCompletion.retain()} from another thread at the end of its delivery: after the call
 * returned it is an IllegalStateException naming retain(); one under way when the call returns
 * either keeps the buffer — the batch's end leaves it to the retained message, so later messages
 * never overwrite it — or fails, never both. The interleaving is forced: the retaining thread is held
 * inside retain() (where it reads the receive slab) while the delivery returns.
 */
class RetainAtDeliveryEndTest {
    private static final int BUFFERS = 16;

    private final TestEndpointFactory endpoints = new TestEndpointFactory();

    @Test
    void retainAfterTheCallReturnedIsAnIllegalStateExceptionNamingRetain() throws Exception {
        AtomicReference<ReceiveCompletion> kept = new AtomicReference<>();
        endpoints.behaviour(kept::set);
        try (PollerRig rig = new PollerRig(endpoints, true, pd -> pd, cq -> cq, "srqMaxWr", String.valueOf(BUFFERS))) {
            rig.send(1);
            while (rig.poller.figures().delivered() < 1) {
                rig.turn();
            }
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> kept.get().retain());
            assertTrue(e.getMessage().startsWith("retain() after its onReceive call returned"), e.getMessage());
            assertEquals(0, rig.poller.retainedBuffers());
        }
    }

    @Test
    void aRetainUnderWayWhenTheCallReturnsKeepsTheBufferOrFailsNeverBoth() throws Exception {
        CountDownLatch inRetain = new CountDownLatch(1);
        CountDownLatch proceed = new CountDownLatch(1);
        AtomicReference<Thread> retaining = new AtomicReference<>();
        AtomicReference<Thread> delivering = new AtomicReference<>();
        AtomicReference<Object> outcome = new AtomicReference<>();
        endpoints.behaviour(c -> {
            if (ConnectionOrder.seq(c) != 1) {
                return;
            }
            delivering.set(Thread.currentThread());
            Thread t = Thread.ofPlatform().unstarted(() -> {
                try {
                    outcome.set(c.retain());
                } catch (RuntimeException e) {
                    outcome.set(e);
                }
            });
            retaining.set(t);
            t.start();
            awaitQuietly(inRetain); // the call returns while the other thread is inside retain()
        });
        try (PollerRig rig = new PollerRig(endpoints, false,
                pd -> new RecordingProtectionDomain(pd, mr -> new PausingSlab(mr, retaining, inRetain, proceed)), cq -> cq,
                "srqMaxWr", String.valueOf(BUFFERS), "maxConcurrency", "2")) {
            rig.send(1);
            while (rig.poller.figures().completed() < 1) {
                rig.turn();
            }
            awaitQuietly(inRetain);
            // the delivery's end either completes, or waits for the retain() under way
            await(() -> rig.poller.figures().delivered() == 1 || delivering.get().getState() == Thread.State.BLOCKED,
                    "the batch's end done or waiting");
            rig.turn(); // the poller takes back what a returned batch handed back
            proceed.countDown();
            retaining.get().join(TimeUnit.SECONDS.toMillis(30));
            await(() -> rig.poller.figures().delivered() == 1, "the batch returned");

            // every other buffer taken and posted again, twice over: a buffer the batch handed back is overwritten
            for (long seq = 2; seq <= 2 + 2L * BUFFERS; seq++) {
                rig.send(seq);
                long upTo = seq;
                while (rig.poller.figures().completed() < upTo) {
                    rig.turn();
                }
                await(() -> rig.poller.figures().delivered() == upTo, "message " + upTo + " delivered");
                rig.turn();
            }
            Object o = outcome.get();
            if (o instanceof RetainedMessage m) {
                assertTrue(m.inReceiveBuffer(), "kept in its receive buffer");
                assertEquals(1, rig.poller.retainedBuffers());
                assertEquals(1, m.payload().order(ByteOrder.nativeOrder()).getLong(0),
                        "the retained buffer was not handed back with the batch (reposted, then overwritten)");
                m.release();
            } else {
                IllegalStateException e = assertThrowsLike(o);
                assertTrue(e.getMessage().startsWith("retain() after"), e.getMessage());
                assertEquals(0, rig.poller.retainedBuffers());
            }
        }
        assertEquals(java.util.List.of(), endpoints.violations);
    }

    private static IllegalStateException assertThrowsLike(Object o) {
        assertTrue(o instanceof IllegalStateException, "retain() returned a message or threw IllegalStateException: " + o);
        return (IllegalStateException) o;
    }


    /**
     * The receive slab, holding the retaining thread the first time that thread reads it (inside
     * retain(), which takes a view of the receive buffer) until {@code proceed} opens.
     */
    private record PausingSlab(MemoryRegion mr, AtomicReference<Thread> retaining, CountDownLatch inRetain,
                               CountDownLatch proceed) implements MemoryRegion {
        @Override
        public MemorySegment segment() {
            if (Thread.currentThread() == retaining.get() && inRetain.getCount() > 0) {
                inRetain.countDown();
                awaitQuietly(proceed);
            }
            return mr.segment();
        }

        @Override
        public long address() {
            return mr.address();
        }

        @Override
        public long length() {
            return mr.length();
        }

        @Override
        public int lkey() {
            return mr.lkey();
        }

        @Override
        public int rkey() {
            return mr.rkey();
        }

        @Override
        public void close() throws VerbsException {
            mr.close();
        }

        @Override
        public boolean isClosed() {
            return mr.isClosed();
        }
    }
}
