package io.rdma.srq.ra.inbound;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.ReceivedMessage;
import io.rdma.srq.api.ReplyHandle;
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
 * used from another thread once the call returned, and a kept reply handle failing with ENOTCONN
 * once its connection is gone.
 */
class KeptMessagesTest extends ActivationFixture {

    /** Waits until the listener call of {@code c} returned: its completion throws from then on. */
    private static void awaitCallEnded(ReceiveCompletion c) throws InterruptedException {
        await(() -> {
            try {
                c.byteLen();
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
                        if (!java.util.Arrays.equals(during, m.copyPayload()) || m.byteLen() != during.length) {
                            wrong.add("the copy changed after the call: " + m);
                        }
                        m.replyHandle().reply(m.payload());
                    } catch (VerbsException | InterruptedException | RuntimeException e) {
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
            assertEquals(8 + i % 50, m.byteLen());
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
}
