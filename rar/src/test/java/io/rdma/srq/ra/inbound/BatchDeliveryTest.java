package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;

import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqBatchFailure;
import io.rdma.srq.api.SrqDeadLetter;
import io.rdma.srq.ra.testing.SoftActivationTest;
import io.rdma.srq.ra.testing.SoftSender;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The batch listener on the soft device: batch sizes, one before/afterDelivery per batch, failure isolation. */
class BatchDeliveryTest extends SoftActivationTest {
    private final List<SrqDeadLetter> deadLetters = new CopyOnWriteArrayList<>();
    private SoftSender sender;

    BatchDeliveryTest() {
        super(new TestEndpointFactory(true));
    }

    @BeforeEach
    void recordDeadLetters() {
        ra.setEventSink((event, loader) -> {
            if (event instanceof SrqDeadLetter d) {
                deadLetters.add(d);
            }
        });
    }

    /** Also connects {@code sender}. */
    @Override
    protected SrqActivation activate(String... properties) throws Exception {
        SrqActivation a = activate(set(spec("srqMaxWr", "512", "srqLimit", "0", "bufferSize", "64"), properties));
        sender = sender(a, 64);
        return a;
    }

    /** Sends n with deliveries held, so the CQ holds them and polls fill whole batches. */
    private void sendHeld(int n) throws Exception {
        endpoints.close();
        for (int i = 0; i < n; i++) {
            sender.send(i, 64, null);
        }
        sender.drain(Duration.ofSeconds(10));
        assertEquals(n, sender.acknowledged);
        endpoints.open();
    }

    private static long seq(ReceiveCompletion c) {
        return c.payload().order(ByteOrder.nativeOrder()).getLong(0);
    }

    private static int indexOf(List<ReceiveCompletion> batch, long seq) {
        for (int i = 0; i < batch.size(); i++) {
            if (seq(batch.get(i)) == seq) {
                return i;
            }
        }
        return -1;
    }


    @Test
    void upToMaxBatchSizeMessagesPerCallEachOnce() throws Exception {
        SrqActivation a = activate("maxBatchSize", "8", "maxConcurrency", "2");
        sendHeld(200);
        await(() -> a.statistics().delivered() == 200, "200 delivered");
        assertEquals(200, endpoints.distinctSequences());
        assertEquals(200, endpoints.received.size(), "each message once");
        assertEquals(200, endpoints.batchSizes.stream().mapToInt(Integer::intValue).sum());
        assertTrue(endpoints.batchSizes.stream().allMatch(n -> n >= 1 && n <= 8), "1..8 a call: " + endpoints.batchSizes);
        assertTrue(endpoints.batchSizes.stream().anyMatch(n -> n > 1), "held messages come in batches: "
                + endpoints.batchSizes);
        assertEquals(0, a.statistics().endpointFailures());
    }

    @Test
    void aReportedFailureDeadLettersThatMessageOnlyAndTheRestAreDelivered() throws Exception {
        SrqActivation a = activate("maxBatchSize", "16", "maxConcurrency", "1");
        endpoints.batchBehaviour(batch -> {
            int i = indexOf(batch, 13);
            if (i >= 0) {
                throw new SrqBatchFailure(i, new IllegalArgumentException("message 13 is bad"));
            }
        });
        sendHeld(100);
        await(() -> a.statistics().delivered() == 100, "100 delivered");
        await(() -> deadLetters.size() == 1, "one dead letter");
        SrqDeadLetter d = deadLetters.getFirst();
        assertEquals(13L, d.payload().order(ByteOrder.nativeOrder()).getLong());
        assertEquals("message 13 is bad", d.lastFailure().getMessage());
        assertEquals(1, d.attempts(), "maxDeliveryAttempts 1: the reported failure was its one attempt");
        assertEquals(100, endpoints.distinctSequences(), "every good message delivered");
        ActivationStatistics st = a.statistics();
        assertEquals(1, st.deadLettered());
        assertEquals(1, st.endpointFailures());
    }

    @Test
    void anUnreportedFailureIsIsolatedOneByOneAndOnlyTheBadMessageIsDeadLettered() throws Exception {
        SrqActivation a = activate("maxBatchSize", "16", "maxConcurrency", "1", "maxDeliveryAttempts", "2");
        endpoints.batchBehaviour(batch -> {
            if (indexOf(batch, 21) >= 0) {
                throw new IllegalStateException("somewhere in this batch");
            }
        });
        sendHeld(100);
        await(() -> a.statistics().delivered() == 100, "100 delivered");
        await(() -> deadLetters.size() == 1, "one dead letter");
        assertEquals(21L, deadLetters.getFirst().payload().order(ByteOrder.nativeOrder()).getLong());
        assertEquals(2, deadLetters.getFirst().attempts(), "alone, maxDeliveryAttempts times");
        assertEquals(100, endpoints.distinctSequences());
        ActivationStatistics st = a.statistics();
        assertEquals(1, st.deadLettered(), "no good message of the failing batch dead-lettered");
        assertEquals(3, st.endpointFailures(), "the batch, then message 21 twice alone");
        assertEquals(1, st.redelivered(), "message 21's second attempt");
    }
}
