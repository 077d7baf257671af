package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;

import io.rdma.srq.ra.testing.SoftActivationTest;
import io.rdma.srq.ra.testing.TestEndpointFactory;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.ra.testing.SoftSender;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** ordering=connection with the batch listener: a batch holds one connection's messages, in arrival order. */
class OrderedBatchDeliveryTest extends SoftActivationTest {

    OrderedBatchDeliveryTest() {
        super(new TestEndpointFactory(true));
    }

    @Test
    void eachBatchIsOneConnectionsMessagesInArrivalOrder() throws Exception {
        SrqActivation a = activate("srqMaxWr", "512", "srqLimit", "0", "bufferSize", "64", "maxConcurrency", "4",
                "maxBatchSize", "8", "ordering", "connection");
        List<String> wrong = new CopyOnWriteArrayList<>();
        Map<Long, Long> last = new ConcurrentHashMap<>();
        endpoints.batchBehaviour(batch -> {
            long connection = batch.getFirst().connectionId();
            for (ReceiveCompletion c : batch) {
                long seq = c.payload().order(ByteOrder.nativeOrder()).getLong(0);
                if (c.connectionId() != connection) {
                    wrong.add("a batch of connections " + connection + " and " + c.connectionId());
                }
                Long before = last.put(c.connectionId(), seq);
                if (before != null && before + 1 != seq) {
                    wrong.add("connection " + c.connectionId() + ": " + seq + " after " + before);
                }
            }
        });
        List<SoftSender> four = new ArrayList<>();
        for (int s = 0; s < 4; s++) {
            four.add(sender(a, 64));
        }
        for (int i = 0; i < 500; i++) {
            for (int s = 0; s < 4; s++) {
                four.get(s).send(s * 1_000_000L + i, 64, null);
            }
        }
        for (SoftSender s : four) {
            s.drain(Duration.ofSeconds(20));
            assertEquals(0, s.sendErrors);
        }
        await(() -> a.statistics().delivered() == 2000, "2000 delivered");
        assertEquals(List.of(), wrong);
        assertEquals(4, last.size());
        assertEquals(2000, endpoints.batchSizes.stream().mapToInt(Integer::intValue).sum());
        assertEquals(true, endpoints.batchSizes.stream().allMatch(n -> n >= 1 && n <= 8), endpoints.batchSizes.toString());
    }
}
