package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;

import io.rdma.srq.ra.testing.SoftActivationTest;

import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.ReceivedMessage;
import io.rdma.srq.api.ReplyHandle;
import io.rdma.srq.api.RetainedMessage;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.testing.SoftCmatoseServer;
import io.rdma.srq.ra.testing.SoftSender;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Messages that outlive their listener call (ReceiveCompletion.copy, replyHandle) on the soft device:
 * used from another thread once the call returned, retained receive buffers (counted, bounded, given back on
 * release, by the garbage collector, or copied at deactivation), and a kept reply handle failing with ENOTCONN
 * once its connection is gone.
 */
class KeptMessagesTest extends SoftActivationTest {

    /** Waits until the listener call of {@code c} returned: its completion throws from then on. */
    private static void awaitCallEnded(ReceiveCompletion c) throws InterruptedException {
        await(() -> {
            try {
                c.length();
                return false;
            } catch (IllegalStateException ended) {
                return true;
            }
        }, "the listener call to return");
    }

    @Test
    void copiedMessagesAreRepliedToFromAnotherThreadAfterTheCall() throws Exception {
        ExecutorService later = Executors.newFixedThreadPool(2);
        try (SoftCmatoseServer server = new SoftCmatoseServer(4, 50, 100)) {
            SrqActivation a = activate("srqMaxWr", "256", "srqLimit", "16", "bufferSize", "128", "maxConcurrency", "4",
                    "connectTo", "10.0.0.2:" + server.address().getPort(), "connectCount", "4",
                    "reconnectInterval", "600000");
            List<String> wrong = new CopyOnWriteArrayList<>();
            List<CompletableFuture<Void>> replies = new CopyOnWriteArrayList<>();
            endpoints.behaviour(c -> {
                byte[] during = c.copyPayload();
                ReceivedMessage m = c.copy();
                replies.add(CompletableFuture.runAsync(() -> {
                    try {
                        awaitCallEnded(c);
                        if (!java.util.Arrays.equals(during, m.copyPayload()) || m.length() != during.length) {
                            wrong.add("the copy changed after the call: " + m);
                        }
                        m.replyHandle().reply(m.payload());
                    } catch (InterruptedException | RuntimeException e) {
                        wrong.add(e.toString());
                    }
                }, later));
            });
            assertTrue(server.run(Duration.ofSeconds(30)), "the server's exchange ended: " + server.sendsCompleted
                    + " sends completed, " + server.repliesReceived + " replies, " + wrong);
            CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new)).join();
            assertEquals(List.of(), wrong);
            assertEquals(200, server.repliesReceived, "every message answered from the other thread");
            assertEquals(0, server.errorCompletions);
            assertEquals(200, a.statistics().delivered());
        } finally {
            later.shutdownNow();
        }
    }

    @Test
    void aCopyKeepsItsBytesImmDataAndConnectionAfterTheBufferWasReused() throws Exception {
        SrqActivation a = activate("srqMaxWr", "16", "srqLimit", "0", "bufferSize", "64", "maxConcurrency", "1");
        List<ReceivedMessage> kept = new CopyOnWriteArrayList<>();
        endpoints.behaviour(c -> kept.add(c.copy()));
        SoftSender s = sender(a, 64);
        for (int i = 0; i < 100; i++) { // 100 messages through 16 buffers: each buffer reused ~6 times
            s.send(i, 8 + i % 50, i);
        }
        s.drain(Duration.ofSeconds(20));
        await(() -> kept.size() == 100, "100 copies");
        Set<Long> connections = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            ReceivedMessage m = kept.get(i);
            assertEquals(i, m.payload().order(ByteOrder.nativeOrder()).getLong(0), "message " + i + "'s own bytes");
            assertEquals(8 + i % 50, m.length());
            assertTrue(m.hasImmData());
            assertEquals(i, m.immData());
            assertEquals(1, m.deliveryAttempt());
            assertTrue(m.payload().isReadOnly());
            connections.add(m.connectionId());
        }
        assertEquals(1, connections.size());
        assertNotEquals(0L, connections.iterator().next());
    }

    @Test
    void aKeptReplyHandleFailsWithEnotconnOnceItsConnectionIsGone() throws Exception {
        SrqActivation a = activate("srqMaxWr", "16", "srqLimit", "0", "bufferSize", "64", "maxConcurrency", "1");
        List<ReplyHandle> handles = new CopyOnWriteArrayList<>();
        endpoints.behaviour(c -> handles.add(c.replyHandle()));
        SoftSender first = sender(a, 64);
        first.send(1, 64, null);
        first.drain(Duration.ofSeconds(10));
        await(() -> handles.size() == 1, "the first message");
        ReplyHandle kept = handles.getFirst();
        kept.reply(ByteBuffer.allocate(8)); // its connection is up: posted (from the test thread, after the call)

        first.close();
        await(() -> a.statistics().connections() == 0, "the disconnect handled");
        VerbsException gone = assertThrows(VerbsException.class, () -> kept.reply(ByteBuffer.allocate(8)));
        assertEquals("ENOTCONN", gone.errnoName());
        assertThrows(VerbsException.class, () -> kept.reply(ByteBuffer.allocate(8), 7));

        SoftSender second = sender(a, 64); // a new connection, maybe on the same QP number
        second.send(2, 64, null);
        second.drain(Duration.ofSeconds(10));
        await(() -> handles.size() == 2, "the second message");
        assertNotEquals(kept.connectionId(), handles.get(1).connectionId(), "connection ids are never reused");
        assertEquals("ENOTCONN", assertThrows(VerbsException.class, () -> kept.reply(ByteBuffer.allocate(8)))
                .errnoName(), "the old handle never speaks for the new connection");
        handles.get(1).reply(ByteBuffer.allocate(8));
    }

    @Test
    void aReplyHandleKeptPastDeactivationFailsWithEnotconn() throws Exception {
        SrqActivation a = activate("srqMaxWr", "16", "srqLimit", "0", "bufferSize", "64", "maxConcurrency", "1");
        List<ReplyHandle> handles = new CopyOnWriteArrayList<>();
        endpoints.behaviour(c -> handles.add(c.replyHandle()));
        SoftSender s = sender(a, 64);
        s.send(1, 64, null);
        s.drain(Duration.ofSeconds(10));
        await(() -> handles.size() == 1, "the message");
        ra.endpointDeactivation(endpoints, null);
        await(a::freed, "the natives freed");
        assertEquals("ENOTCONN", assertThrows(VerbsException.class,
                () -> handles.getFirst().reply(ByteBuffer.allocate(8))).errnoName());
    }

    private static long seqOf(ByteBuffer b) {
        return b.order(ByteOrder.nativeOrder()).getLong(0);
    }

    @Test
    void retainedMessagesKeepTheirBufferUntilReleasedAndAreReadFromAnotherThread() throws Exception {
        SrqActivation a = activate("srqMaxWr", "64", "srqLimit", "0", "bufferSize", "64", "maxConcurrency", "1");
        List<RetainedMessage> kept = new CopyOnWriteArrayList<>();
        endpoints.behaviour(c -> kept.add(c.retain()));
        SoftSender s = sender(a, 64);
        for (int i = 0; i < 20; i++) {
            s.send(i, 64, i);
        }
        s.drain(Duration.ofSeconds(10));
        await(() -> kept.size() == 20 && a.statistics().delivered() == 20, "20 retained");
        assertEquals(20, a.statistics().retained(), "20 receive buffers out of the SRQ");
        assertEquals(44, a.statistics().outstanding(), "not reposted while retained: 64 - 20");
        List<ByteBuffer> views = new CopyOnWriteArrayList<>();
        CompletableFuture.runAsync(() -> { // another thread, after the calls returned
            for (int i = 0; i < 20; i++) {
                RetainedMessage m = kept.get(i);
                assertTrue(m.inReceiveBuffer());
                assertEquals(i, seqOf(m.payload()));
                assertEquals(i, m.immData());
                views.add(m.payload());
                m.release();
                m.release(); // idempotent
            }
        }).join();
        await(() -> a.statistics().retained() == 0 && a.statistics().outstanding() == 64, "every buffer reposted");
        assertThrows(IllegalStateException.class, () -> kept.getFirst().payload(), "released");
        assertThrows(IllegalStateException.class, () -> kept.getFirst().length(), "every accessor, as documented");
        assertThrows(IllegalStateException.class, () -> kept.getFirst().immData());
        assertThrows(IllegalStateException.class, () -> views.getFirst().get(0), "a view of a released buffer");
        assertEquals(0, a.statistics().copiedOut());
    }

    @Test
    void pastMaxHeldPerConnectionRetainCopiesInstead() throws Exception {
        SrqActivation a = activate("srqMaxWr", "128", "srqLimit", "0", "bufferSize", "64", "maxConcurrency", "1",
                "maxHeldPerConnection", "32");
        List<RetainedMessage> kept = new CopyOnWriteArrayList<>();
        endpoints.behaviour(c -> kept.add(c.retain()));
        SoftSender s = sender(a, 64);
        for (int i = 0; i < 40; i++) {
            s.send(i, 64, null);
        }
        s.drain(Duration.ofSeconds(10));
        await(() -> kept.size() == 40 && a.statistics().delivered() == 40, "40 retained");
        ActivationStatistics st = a.statistics();
        assertEquals(32, st.retained(), "the bound: 32 buffers");
        assertEquals(8, st.copiedOut(), "the other 8 copied to the heap");
        for (int i = 0; i < 40; i++) {
            assertEquals(i < 32, kept.get(i).inReceiveBuffer(), "message " + i);
            assertEquals(i, seqOf(kept.get(i).payload()));
        }
        SoftSender other = sender(a, 64); // another connection has a bound of its own
        List<RetainedMessage> theirs = new CopyOnWriteArrayList<>();
        endpoints.behaviour(c -> theirs.add(c.retain()));
        other.send(1000, 64, null);
        other.drain(Duration.ofSeconds(10));
        await(() -> theirs.size() == 1, "the other connection's message");
        assertTrue(theirs.getFirst().inReceiveBuffer());
        kept.forEach(RetainedMessage::close);
        theirs.forEach(RetainedMessage::close);
        await(() -> a.statistics().retained() == 0, "all released");
    }

    @Test
    void aRetainedMessageOutlivesDeactivationAsACopyAndAnOldViewThrows() throws Exception {
        SrqActivation a = activate("srqMaxWr", "16", "srqLimit", "0", "bufferSize", "64", "maxConcurrency", "1");
        List<RetainedMessage> kept = new CopyOnWriteArrayList<>();
        endpoints.behaviour(c -> kept.add(c.retain()));
        SoftSender s = sender(a, 64);
        s.send(77, 64, null);
        s.drain(Duration.ofSeconds(10));
        await(() -> kept.size() == 1, "the message");
        RetainedMessage m = kept.getFirst();
        ByteBuffer before = m.payload();
        ra.endpointDeactivation(endpoints, null);
        await(a::freed, "the natives freed");
        assertThrows(IllegalStateException.class, () -> before.get(0), "a view of the freed slab throws");
        assertTrue(!m.inReceiveBuffer(), "copied to the heap before the slab went");
        assertEquals(77, seqOf(m.payload()));
        assertEquals(77, m.copy().payload().order(ByteOrder.nativeOrder()).getLong(0));
        m.release();
    }

    @Test
    void aRetainedMessageNobodyReleasedIsReleasedOnceUnreachable() throws Exception {
        SrqActivation a = activate("srqMaxWr", "16", "srqLimit", "0", "bufferSize", "64", "maxConcurrency", "1");
        endpoints.behaviour(c -> c.retain()); // dropped at once: a leak the Cleaner repairs
        SoftSender s = sender(a, 64);
        for (int i = 0; i < 4; i++) {
            s.send(i, 64, null);
        }
        s.drain(Duration.ofSeconds(10));
        await(() -> a.statistics().delivered() == 4, "4 delivered");
        await(() -> {
            System.gc();
            return a.statistics().retained() == 0 && a.statistics().outstanding() == 16;
        }, "the unreachable retained messages released and their buffers reposted");
    }
}
