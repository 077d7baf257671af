package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;

import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.ra.testing.SoftActivationTest;
import io.rdma.srq.ra.testing.SoftSender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Deactivation without silent loss on the soft device: arrivals stop first (QPs to ERROR, senders
 * see errors, never SUCCESS for a message that is then dropped), the CQ is drained within
 * drainTimeout, the rest is counted undelivered; and application observers never run on the
 * control loop's thread.
 */
class DeactivationDrainTest extends SoftActivationTest {

    @ParameterizedTest(name = "ordering={0}, maxConcurrency={1}")
    @CsvSource({"none, 2", "connection, 2", "none, 1"}) // maxConcurrency 1: delivered on the poller's thread
    void midStreamDeactivationWithABacklogLargerThanTheDrainLosesNothingSilently(String ordering, String maxConcurrency)
            throws Exception {
        SrqActivationSpec spec = spec("srqMaxWr", "512", "srqLimit", "0", "bufferSize", "64", "maxConcurrency",
                maxConcurrency, "drainTimeout", "200", "ordering", ordering);
        ra.endpointActivation(endpoints, spec);
        SrqActivation a = ra.activations().getFirst();
        endpoints.behaviour(c -> LockSupport.parkNanos(2_000_000)); // a slow MDB: 2 ms a message
        SoftSender s = new SoftSender(a.listenAddress(), 64);
        senders.add(s);
        AtomicReference<Throwable> senderFailure = new AtomicReference<>();
        CountDownLatch backlog = new CountDownLatch(1);
        AtomicInteger sent = new AtomicInteger();
        Thread sender = Thread.ofPlatform().start(() -> {
            try {
                // sends until the receiver stops acknowledging (its QP went to ERROR)
                for (long seq = 0; s.sendErrors == 0 && seq < 100_000; seq++) {
                    s.send(seq, 64, null);
                    if (sent.incrementAndGet() == 600) {
                        backlog.countDown();
                    }
                }
                s.drain(Duration.ofSeconds(10));
            } catch (Throwable t) {
                senderFailure.set(t);
            } finally {
                backlog.countDown();
            }
        });
        assertTrue(backlog.await(20, TimeUnit.SECONDS));
        ra.endpointDeactivation(endpoints, spec);
        sender.join(20_000);
        assertNull(senderFailure.get());
        await(a::freed, "the natives freed");
        ActivationStatistics st = a.statistics();
        assertTrue(s.sendErrors > 0, "the sender saw its later sends fail once arrivals stopped");
        assertTrue(st.undelivered() > 0, "a backlog larger than 200 ms of a 2 ms MDB leaves some undelivered: " + st);
        assertEquals(s.acknowledged, st.delivered() + st.undelivered(),
                "every message acknowledged to the sender is delivered or counted undelivered: " + st);
        assertEquals(st.delivered(), endpoints.received.size(), "delivered as counted");
        assertEquals(st.delivered(), endpoints.distinctSequences(), "0 duplicates");
        assertEquals(0, st.endpointFailures());
    }

    @Test
    void aShortBacklogIsDeliveredWholeBeforeDeactivationEnds() throws Exception {
        SrqActivationSpec spec = spec("srqMaxWr", "256", "srqLimit", "0", "bufferSize", "64", "maxConcurrency", "1",
                "drainTimeout", "10000");
        ra.endpointActivation(endpoints, spec);
        SrqActivation a = ra.activations().getFirst();
        endpoints.close(); // hold deliveries: the CQ fills
        SoftSender s = new SoftSender(a.listenAddress(), 64);
        senders.add(s);
        for (int i = 0; i < 200; i++) {
            s.send(i, 64, null);
        }
        s.drain(Duration.ofSeconds(10));
        assertEquals(200, s.acknowledged);
        Thread opener = Thread.ofPlatform().start(() -> {
            LockSupport.parkNanos(300_000_000);
            endpoints.open();
        });
        ra.endpointDeactivation(endpoints, spec);
        opener.join();
        await(a::freed, "the natives freed");
        ActivationStatistics st = a.statistics();
        assertEquals(200, st.delivered(), "all 200 delivered within the drain timeout: " + st);
        assertEquals(0, st.undelivered());
        assertEquals(200, endpoints.distinctSequences());
    }

    @Test
    void aBlockingObserverDelaysNeitherAcceptsNorDeactivation() throws Exception {
        CountDownLatch observerEntered = new CountDownLatch(1);
        CountDownLatch releaseObserver = new CountDownLatch(1);
        List<Thread> observerThreads = new java.util.concurrent.CopyOnWriteArrayList<>();
        ra.setEventSink((event, loader) -> {
            observerThreads.add(Thread.currentThread());
            observerEntered.countDown();
            try {
                releaseObserver.await(15, TimeUnit.SECONDS); // a synchronous observer blocking 10 s and more
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        SrqActivationSpec spec = spec("srqMaxWr", "64", "srqLimit", "8", "initialFill", "16", "replenishPolicy",
                "fixed", "bufferSize", "64", "maxConcurrency", "1", "drainTimeout", "1000");
        ra.endpointActivation(endpoints, spec);
        SrqActivation a = ra.activations().getFirst();
        endpoints.close();
        SoftSender first = new SoftSender(a.listenAddress(), 64);
        senders.add(first);
        for (int i = 0; i < 12; i++) {
            first.send(i, 64, null); // 16 posted, fewer than 8 left: the limit event
        }
        assertTrue(observerEntered.await(10, TimeUnit.SECONDS), "the limit event reached the observer");
        assertTrue(observerThreads.stream().noneMatch(t -> t.getName().startsWith("srq-control-")),
                "the observer runs off the control loop: " + observerThreads);
        // while the observer blocks: a new connection is accepted and deactivation completes
        SoftSender second = new SoftSender(a.listenAddress(), 64);
        senders.add(second);
        await(() -> a.statistics().connections() == 2, "the second connection accepted");
        endpoints.open();
        ra.endpointDeactivation(endpoints, spec);
        await(a::freed, "deactivation done");
        assertEquals(1, releaseObserver.getCount(), "all of it while the observer still blocked");
        releaseObserver.countDown();
    }

    @Test
    void quiesceDeliversTheBacklogThenNothingMoreAndDeactivationOnlyTearsDown() throws Exception {
        SrqActivationSpec spec = spec("srqMaxWr", "256", "srqLimit", "0", "bufferSize", "64", "maxConcurrency", "1",
                "drainTimeout", "10000");
        ra.endpointActivation(endpoints, spec);
        SrqActivation a = ra.activations().getFirst();
        endpoints.close(); // hold deliveries: the CQ fills
        SoftSender s = new SoftSender(a.listenAddress(), 64);
        senders.add(s);
        for (int i = 0; i < 100; i++) {
            s.send(i, 64, null);
        }
        s.drain(Duration.ofSeconds(10));
        assertEquals(100, s.acknowledged);
        Thread opener = Thread.ofPlatform().start(() -> {
            LockSupport.parkNanos(300_000_000);
            endpoints.open();
        });
        a.quiesce(); // what a server suspend does to every activation at once
        opener.join();
        assertTrue(a.quiesced());
        assertEquals(100, endpoints.received.size(), "the backlog delivered before quiesce returned");
        for (int i = 100; i < 110; i++) {
            s.send(i, 64, null);
        }
        s.drain(Duration.ofSeconds(10));
        assertEquals(100, s.acknowledged, "a quiesced activation acknowledges nothing more");
        assertTrue(s.sendErrors > 0, "the sender sees its sends fail");
        assertTrue(!a.freed(), "the natives stay until deactivation");
        ra.endpointDeactivation(endpoints, spec);
        await(a::freed, "deactivation done");
        ActivationStatistics st = a.statistics();
        assertEquals(100, st.delivered(), st.toString());
        assertEquals(0, st.undelivered());
        assertEquals(100, endpoints.distinctSequences());
    }

    @Test
    void activatingTheFactoryOfAQuiescedActivationReplacesIt() throws Exception {
        // a suspend cancelled after the adapter quiesced every activation but before WildFly deactivated
        // this MDB: on resume WildFly activates it again without a deactivation
        SrqActivationSpec spec = spec("srqMaxWr", "64", "srqLimit", "0", "bufferSize", "64", "maxConcurrency", "1");
        ra.endpointActivation(endpoints, spec);
        SrqActivation quiesced = ra.activations().getFirst();
        quiesced.quiesce();
        ra.endpointActivation(endpoints, spec);
        await(quiesced::freed, "the quiesced activation stopped and freed");
        SrqActivation fresh = ra.activations().getFirst();
        assertEquals(1, ra.activations().size());
        assertTrue(fresh != quiesced && !fresh.quiesced());
        SoftSender s = new SoftSender(fresh.listenAddress(), 64);
        senders.add(s);
        for (int i = 0; i < 10; i++) {
            s.send(i, 64, null);
        }
        s.drain(Duration.ofSeconds(10));
        await(() -> endpoints.received.size() == 10, "the new activation delivers");
        ra.endpointDeactivation(endpoints, spec);
    }
}
