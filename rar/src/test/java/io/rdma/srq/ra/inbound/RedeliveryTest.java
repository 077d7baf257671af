package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;

import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.api.SrqDeadLetter;
import io.rdma.srq.ra.testing.SoftActivationTest;
import io.rdma.srq.ra.testing.SoftSender;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import io.rdma.srq.ra.testing.TestTransactions;
import jakarta.transaction.RollbackException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * maxDeliveryAttempts, the dead-letter event and rollback under (a stand-in for) container-managed
 * transactions, on the soft device.
 */
class RedeliveryTest extends SoftActivationTest {
    private final List<SrqDeadLetter> deadLetters = new CopyOnWriteArrayList<>();
    private final List<ClassLoader> deadLetterLoaders = new CopyOnWriteArrayList<>();
    private SoftSender sender;

    @BeforeEach
    void recordDeadLetters() {
        ra.setEventSink((event, loader) -> {
            if (event instanceof SrqDeadLetter d) {
                deadLetters.add(d);
                deadLetterLoaders.add(loader);
            }
        });
    }

    /** Also connects {@code sender}. */
    @Override
    protected SrqActivation activate(String... properties) throws Exception {
        SrqActivation a = activate(set(spec("srqMaxWr", "256", "srqLimit", "0", "bufferSize", "64"), properties));
        sender = sender(a, 64);
        return a;
    }

    private static long seq(io.rdma.srq.api.ReceiveCompletion c) {
        return c.payload().order(ByteOrder.nativeOrder()).getLong(0);
    }


    private void send(int n) throws Exception {
        for (int i = 0; i < n; i++) {
            sender.send(i, 64, i);
        }
        sender.drain(Duration.ofSeconds(10));
        assertEquals(n, sender.acknowledged);
    }

    @Test
    void aFailedDeliveryIsRepeatedUntilItSucceeds() throws Exception {
        SrqActivation a = activate("maxDeliveryAttempts", "3", "maxConcurrency", "2");
        endpoints.behaviour(c -> {
            if (seq(c) % 10 == 0 && c.deliveryAttempt() < 3) {
                throw new IllegalStateException("fails twice, then works: " + seq(c));
            }
        });
        send(100);
        await(() -> a.statistics().delivered() == 100, "100 messages delivered");
        ActivationStatistics st = a.statistics();
        assertEquals(20, st.endpointFailures(), "10 messages failed twice each");
        assertEquals(20, st.redelivered());
        assertEquals(0, st.deadLettered());
        assertEquals(List.of(), deadLetters);
        assertEquals(100, endpoints.distinctSequences(), "each message seen, none lost");
        assertEquals(120, endpoints.received.size(), "100 first attempts and 20 redeliveries");
        for (TestEndpointFactory.Received r : endpoints.received) {
            long seq = ByteBuffer.wrap(r.payload()).order(ByteOrder.nativeOrder()).getLong();
            assertTrue(r.attempt() == 1 || seq % 10 == 0, "only the failing ones are redelivered");
        }
    }

    @Test
    void whenTheAttemptsRunOutTheDeadLetterCarriesACopyTheConnectionTheAttemptsAndTheFailure() throws Exception {
        SrqActivation a = activate("maxDeliveryAttempts", "4", "maxConcurrency", "1");
        IllegalArgumentException poison = new IllegalArgumentException("poison message");
        endpoints.behaviour(c -> {
            if (seq(c) == 7) {
                throw poison;
            }
        });
        send(20);
        await(() -> a.statistics().delivered() == 20, "20 messages delivered");
        await(() -> deadLetters.size() == 1, "one dead letter");
        SrqDeadLetter d = deadLetters.getFirst();
        assertEquals(4, d.attempts());
        assertEquals(poison, d.lastFailure());
        assertEquals(7L, d.payload().order(ByteOrder.nativeOrder()).getLong(), "a copy of message 7");
        assertEquals(64, d.length());
        assertTrue(d.hasImmData());
        assertEquals(7, d.immData());
        long connection = endpoints.received.getFirst().connectionId();
        assertTrue(connection > 0);
        assertEquals(connection, d.connectionId(), "the dead letter names the message's connection");
        assertEquals(TestEndpointFactory.Endpoint.class.getClassLoader(), deadLetterLoaders.getFirst(),
                "observers run with the application's class loader");
        ActivationStatistics st = a.statistics();
        assertEquals(1, st.deadLettered());
        assertEquals(4, st.endpointFailures());
        assertEquals(3, st.redelivered());
        assertEquals(20, endpoints.distinctSequences());
    }

    @Test
    void aRolledBackContainerTransactionIsAFailedDeliveryAndIsRedelivered() throws Exception {
        TestTransactions tx = new TestTransactions();
        bootstrap.transactions(tx);
        endpoints.transacted(tx);
        Map<Long, Integer> attempts = new ConcurrentHashMap<>();
        endpoints.behaviour(c -> {
            long seq = seq(c);
            attempts.merge(seq, 1, Integer::sum);
            if (seq % 5 == 0 && c.deliveryAttempt() == 1) {
                tx.setRollbackOnly(); // returns normally; the container rolls back in afterDelivery
            }
            if (seq == 3) {
                tx.setRollbackOnly(); // always rolls back: dead-lettered
            }
        });
        SrqActivation a = activate("maxDeliveryAttempts", "2", "maxConcurrency", "2");
        send(50);
        await(() -> a.statistics().delivered() == 50, "50 messages delivered");
        await(() -> deadLetters.size() == 1, "message 3 dead-lettered");
        for (long seq = 0; seq < 50; seq++) {
            int expected = seq % 5 == 0 || seq == 3 ? 2 : 1;
            assertEquals(expected, attempts.get(seq), "attempts of message " + seq);
        }
        SrqDeadLetter d = deadLetters.getFirst();
        assertInstanceOf(RollbackException.class, d.lastFailure());
        assertEquals(2, d.attempts());
        ActivationStatistics st = a.statistics();
        assertEquals(12, st.endpointFailures(), "10 rolled back once, message 3 twice");
        assertEquals(11, st.redelivered());
        assertEquals(12, tx.rolledBack.get());
        assertEquals(50 + 11 - 12, tx.committed.get());
    }

    @Test
    void consecutiveFailuresPauseDeliveryUntilResumedAndNothingIsLost() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean failing = new java.util.concurrent.atomic.AtomicBoolean(true);
        endpoints.behaviour(c -> {
            if (failing.get()) {
                throw new IllegalStateException("a broken back end");
            }
        });
        SrqActivation a = activate("maxDeliveryAttempts", "1", "maxConcurrency", "1",
                "maxSequentialDeliveryFailures", "5", "pauseTimeout", "0");
        for (int i = 0; i < 5; i++) {
            sender.send(i, 64, i);
        }
        await(() -> a.statistics().paused(), "paused after 5 dead letters in a row");
        await(() -> deadLetters.size() == 5, "the 5th SrqDeadLetter fired (it may follow the pause)");
        assertEquals(1, a.statistics().pauses());
        failing.set(false); // the back end is repaired; 50 more arrive while paused
        for (int i = 5; i < 55; i++) {
            sender.send(i, 64, i);
        }
        sender.drain(Duration.ofSeconds(10));
        assertEquals(55, sender.acknowledged, "the SRQ still had receives: acknowledged, waiting in the CQ");
        Thread.sleep(200);
        assertEquals(5, a.statistics().delivered(), "nothing delivered while paused");
        assertTrue(a.statistics().paused(), "pauseTimeout 0: paused until resumed");
        a.resumeDelivery();
        await(() -> a.statistics().delivered() == 55, "the 50 delivered once resumed");
        assertEquals(5, a.statistics().deadLettered());
        assertEquals(55, endpoints.distinctSequences());
    }

    @Test
    void aPauseEndsAtItsTimeout() throws Exception {
        endpoints.behaviour(c -> {
            if (seq(c) < 3) {
                throw new IllegalStateException("the first three fail");
            }
        });
        SrqActivation a = activate("maxConcurrency", "1", "maxSequentialDeliveryFailures", "3",
                "pauseTimeout", "100");
        send(3);
        await(() -> a.statistics().paused(), "paused after 3 dead letters");
        for (int i = 3; i < 10; i++) {
            sender.send(i, 64, i);
        }
        await(() -> a.statistics().delivered() == 10, "the other 7 delivered once the pause timed out");
        assertTrue(!a.statistics().paused(), "nothing resumed it but its timeout");
        assertEquals(1, a.statistics().pauses());
        assertEquals(3, a.statistics().deadLettered());
    }

    @Test
    void withoutATransactionNothingIsWatched() throws Exception {
        TestTransactions tx = new TestTransactions();
        bootstrap.transactions(tx); // a registry, but the MDB is NOT_SUPPORTED: no transaction begun
        SrqActivation a = activate("maxDeliveryAttempts", "2");
        send(10);
        await(() -> a.statistics().delivered() == 10, "10 delivered");
        assertEquals(0, a.statistics().endpointFailures());
        assertEquals(0, tx.committed.get() + tx.rolledBack.get());
    }
}
