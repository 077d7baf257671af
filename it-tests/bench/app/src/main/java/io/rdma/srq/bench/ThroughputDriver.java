package io.rdma.srq.bench;

import io.rdma.srq.api.SrqConnectionFactory;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;

/**
 * Runs one throughput measurement: {@code senders} in-server senders (EJB {@code @Asynchronous}
 * methods) into a case's sink MDB, timed from the first send to the delivery of the last message.
 * While it runs it samples the backlog (messages sent but not yet delivered to the MDB) every
 * {@value #SAMPLE_MILLIS} ms: a backlog that keeps growing (JMS: the queue), or that stays at the
 * receive side's capacity (SRQ: the senders are held back by receiver-not-ready once srqMaxWr
 * buffers are in use), says the receiving side is the bottleneck; a sender-bound run keeps it near 0.
 */
@ApplicationScoped
public class ThroughputDriver {
    private static final long SAMPLE_MILLIS = 5;

    @Inject
    SrqSender srqSender;

    @Inject
    JmsSender jmsSender;

    @Inject
    SrqConnectionFactory srq;

    @Resource(lookup = "java:/ConnectionFactory")
    ConnectionFactory jms;

    /**
     * @param c          the case
     * @param senders    sender threads, ≥ 1
     * @param peers      SrqPeer connections per SRQ sender (ignored for JMS), ≥ 1
     * @param messages   messages per sender, ≥ 1
     * @param size       bytes per message
     * @param timeoutMs  longest the run may take
     * @return what it measured
     * @throws IllegalArgumentException for a case whose sink is on server B ({@link #send})
     * @throws Exception a sender's failure, or TimeoutException when deliveries fall short
     */
    public ThroughputResult run(ThroughputCase c, int senders, int peers, long messages, int size, long timeoutMs)
            throws Exception {
        if (remote(c)) {
            throw new IllegalArgumentException(c.label() + "'s sink is on server B: use send (mode=send)");
        }
        long total = senders * messages;
        DeliveryCount deliveries = c.deliveries();
        long before = deliveries.count();
        deliveries.arm(total);
        SendProgress sent = new SendProgress();
        long start = System.nanoTime();
        List<Future<Long>> futures = startSenders(c, senders, peers, messages, size, sent);
        long deadline = start + timeoutMs * 1_000_000L;
        long maxBacklog = 0;
        long backlogSum = 0;
        long samples = 0;
        long sendEnd = 0;
        long backlogAtSendEnd = -1;
        while (deliveries.reachedNanos() == 0) {
            long backlog = sent.sent() - (deliveries.count() - before);
            maxBacklog = Math.max(maxBacklog, backlog);
            backlogSum += backlog;
            samples++;
            if (sendEnd == 0 && futures.stream().allMatch(Future::isDone)) {
                sendEnd = System.nanoTime();
                backlogAtSendEnd = total - (deliveries.count() - before);
                for (Future<Long> f : futures) {
                    f.get();   // a sender's exception ends the run here
                }
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException(c.label() + ": " + (deliveries.count() - before) + " of " + total
                        + " delivered after " + timeoutMs + " ms (sent " + sent.sent() + ")");
            }
            Thread.sleep(SAMPLE_MILLIS);
        }
        if (sendEnd == 0) {
            for (Future<Long> f : futures) {
                f.get();
            }
            sendEnd = System.nanoTime();
            backlogAtSendEnd = 0;
        }
        long firstSend = sent.firstSendNanos(); // connections made: the timing starts here
        return new ThroughputResult(c.label(), senders, total, size, deliveries.reachedNanos() - firstSend,
                sendEnd - firstSend, samples == 0 ? 0 : backlogSum / samples, maxBacklog, backlogAtSendEnd);
    }

    /**
     * Fills a JMS case's queue while its MDB's delivery is stopped (management: stop-delivery), for
     * {@link #drain}: the receiver alone, no sender running beside it.
     *
     * @param c        a JMS case
     * @param senders  sender threads, ≥ 1
     * @param messages messages per sender
     * @param size     bytes per message
     * @return messages sent
     * @throws IllegalArgumentException for an SRQ case (its senders cannot run ahead of the SRQ's
     *                                  receive buffers: receiver-not-ready holds them back)
     * @throws Exception                a sender's failure
     */
    public long prefill(ThroughputCase c, int senders, long messages, int size) throws Exception {
        if (c.transport() != ThroughputCase.Transport.JMS) {
            throw new IllegalArgumentException("prefill needs a queue (a JMS case), got " + c.label());
        }
        c.deliveries().arm(senders * messages);
        SendProgress sent = new SendProgress();
        for (Future<Long> f : startSenders(c, senders, 1, messages, size, sent)) {
            f.get();
        }
        return sent.sent();
    }

    /**
     * Waits for the deliveries that {@link #prefill} armed (after management's start-delivery).
     *
     * @param c         the case
     * @param timeoutMs longest wait
     * @return first to last delivery, ns
     * @throws TimeoutException when they fall short
     */
    public long drain(ThroughputCase c, long timeoutMs) throws Exception {
        DeliveryCount deliveries = c.deliveries();
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while (deliveries.reachedNanos() == 0) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException(c.label() + ": the drain did not end within " + timeoutMs + " ms");
            }
            Thread.sleep(SAMPLE_MILLIS);
        }
        return deliveries.reachedNanos() - deliveries.firstNanos();
    }

    /**
     * The sending half of a two-server run, on server A: {@code senders} senders into a case whose
     * sink is on server B (which two-servers.sh has armed there and then asks for the delivery
     * times, DrainServlet's {@code arm} and {@code drain} steps).
     *
     * @param c        a case whose transport reaches server B
     * @param senders  sender threads, ≥ 1
     * @param peers    as for {@link #run}
     * @param messages messages per sender
     * @param size     bytes per message
     * @return first send to the last sender's end, ns
     * @throws IllegalArgumentException for a case whose sink is in this server
     * @throws Exception                a sender's failure
     */
    public long send(ThroughputCase c, int senders, int peers, long messages, int size) throws Exception {
        if (!remote(c)) {
            throw new IllegalArgumentException("send needs a case whose sink is on server B, got " + c.label());
        }
        SendProgress sent = new SendProgress();
        for (Future<Long> f : startSenders(c, senders, peers, messages, size, sent)) {
            f.get();
        }
        return System.nanoTime() - sent.firstSendNanos();
    }

    private static boolean remote(ThroughputCase c) {
        return c.transport() == ThroughputCase.Transport.FABRIC || c.transport() == ThroughputCase.Transport.JMS_REMOTE;
    }

    private List<Future<Long>> startSenders(ThroughputCase c, int senders, int peers, long messages, int size,
                                            SendProgress sent) throws Exception {
        List<Future<Long>> futures = new ArrayList<>(senders);
        for (int i = 0; i < senders; i++) {
            futures.add(switch (c.transport()) {
                case SRQ -> srqSender.send(srq, new InetSocketAddress(ThroughputCase.SRQ_ADDRESS,
                        Integer.parseInt(c.destination())), peers, messages, size, sent);
                case JMS -> jmsSender.send(jms, c.destination(), messages, size, sent);
                case FABRIC -> srqSender.send(ServerB.srq(), ServerB.activation(Integer.parseInt(c.destination())), peers,
                        messages, size, sent);
                case JMS_REMOTE -> jmsSender.send(ServerB.jms(), c.destination(), messages, size, sent);
            });
        }
        return futures;
    }
}
