package io.rdma.srq.ra.inbound.delivery;

import io.rdma.srq.ra.inbound.connections.Links;

import io.rdma.srq.ra.support.RaLogger;
import io.rdma.srq.verbs.WorkCompletionArray;

import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * ordering=connection: one lane per connection (by its id, never reused), holding that connection's
 * polled messages in arrival order; a lane has at most one {@link Delivery} out at a time, so its
 * messages are delivered in order and never concurrently, while lanes run in parallel up to
 * maxConcurrency (the Kafka-partition model). Ready lanes are served round robin.
 *
 * <p>The bound (activation property maxHeldPerConnection): all QPs complete on one CQ, so a slow
 * connection's completions cannot be left there while the others' are taken (that starves the
 * others: spdk/spdk#2180). They are taken, and a connection's messages waiting behind its
 * delivery in progress hold receive buffers of the shared SRQ. A connection with {@code maxHeld}
 * messages waiting in buffers gets its further messages copied to the heap, the buffer going back to
 * the SRQ at once (counted {@link #copiedOut()}); once {@code maxHeld} copies wait too, the connection
 * is disconnected ({@link Links#evict}: its QP to ERROR, so nothing more is acknowledged to it;
 * counted {@link #evicted()}, WARN SRQRA0330). Its waiting messages are still delivered, in order.
 * So one connection holds at most {@code maxHeld} waiting buffers plus the batch in delivery
 * (≤ {@value Poller#BATCH}), and about {@code maxHeld} × bufferSize heap bytes, plus what was in
 * flight when it was disconnected.
 *
 * <p>Overload is not an offence: the poller takes completions only while every connection but the
 * stalled ones has room for a whole poll below its bound (its waiting buffers plus what one poll can
 * add, {@value Poller#BATCH} or the receives posted if fewer, at most {@code maxHeld}) and they have
 * fewer than {@value Poller#BATCH} messages waiting in all ({@link #keepingUp()}). <em>Stalled</em>
 * is a connection whose batch has been in delivery {@value #STALL_FACTOR} times longer than batches
 * take on average (a moving average over all connections, from the first batch that ended), and at
 * least {@value #STALL_FLOOR_MS} ms, as long as at most half of maxConcurrency (at least one) are
 * stalled and another connection is not. So a connection that is merely slower than its sender (a
 * flood, even the only connection), or many slow at once (a slow MDB, a pause of the whole JVM),
 * stops the polling first: completions wait in the CQ, the SRQ empties and senders see RNR
 * backpressure, as with ordering=none, and nobody is copied out or disconnected. A connection whose
 * MDB work is much slower than the others' keeps having its messages taken while the others are
 * served: it alone reaches its bound, is copied out, and then disconnected.
 *
 * <p>The poller's thread only.
 */
public final class ConnectionLanes {
    /** One waiting message: in its receive buffer ({@code bytes} null), or copied out ({@code buffer} -1). */
    record Waiting(int buffer, int byteLen, boolean hasImm, int immData, int qpNum, long connectionId, byte[] bytes) {
    }

    /** A batch in delivery this many times longer than batches take on average is stalled. */
    static final int STALL_FACTOR = 10;
    /** ... and at least this long, ms. */
    static final long STALL_FLOOR_MS = 100;
    private static final long STALL_FLOOR_NANOS = STALL_FLOOR_MS * 1_000_000;

    private final String name;
    private final ReceiveBuffers buffers;
    private final Links links;
    private final int maxHeld;
    private final int maxStalled;
    private final Map<Long, Lane> lanes = new HashMap<>();
    private final ArrayDeque<Lane> ready = new ArrayDeque<>();
    private final LongAdder copiedOut = new LongAdder();
    private final LongAdder evicted = new LongAdder();
    private int waiting;
    /** How long batches took in delivery, moving average (1/16 weight), nanoseconds. */
    private long typicalBatchNanos;

    /**
     * @param name    the activation's SRQ name, for logs
     * @param buffers the SRQ's receive buffers (copied from, released to)
     * @param links   the connections (to disconnect an offender)
     * @param maxHeld receive buffers one connection may hold, ≥ 1
     * @param maxConcurrency endpoints at once: stalled connections are set apart while they hold at
     *                       most half of them (at least one)
     */
    ConnectionLanes(String name, ReceiveBuffers buffers, Links links, int maxHeld, int maxConcurrency) {
        this.name = name;
        this.buffers = buffers;
        this.links = links;
        this.maxHeld = maxHeld;
        this.maxStalled = Math.max(1, maxConcurrency / 2);
    }

    /**
     * Queues the successful completion {@code i} of {@code wcs} behind its connection's earlier
     * messages, copying it out (and disconnecting the connection) past the bound.
     */
    void offer(WorkCompletionArray wcs, int i, long connectionId) {
        boolean hasImm = wcs.hasImm(i);
        offer(new Waiting((int) wcs.wrId(i), wcs.byteLen(i), hasImm, hasImm ? wcs.immData(i) : 0, wcs.qpNum(i),
                connectionId, null));
    }

    /**
     * Queues a polled message, still in its receive buffer, behind its connection's earlier messages,
     * as {@link #offer(WorkCompletionArray, int, long)}.
     *
     * @param polled the message ({@code bytes} null)
     */
    void offer(Waiting polled) {
        long connectionId = polled.connectionId();
        Lane lane = lanes.computeIfAbsent(connectionId, Lane::new);
        lane.qpNum = polled.qpNum();
        int buffer = polled.buffer();
        int byteLen = polled.byteLen();
        int qpNum = polled.qpNum();
        byte[] bytes = null;
        if (lane.held >= maxHeld) {
            bytes = buffers.buffer(buffer, byteLen).toArray(ValueLayout.JAVA_BYTE);
            buffers.release(buffer);
            buffer = -1;
            copiedOut.increment();
            if (++lane.copied >= maxHeld && !lane.evicted) {
                lane.evicted = true; // once: what it sent before the disconnect still arrives
                if (links.evict(qpNum, connectionId)) {
                    evicted.increment();
                    RaLogger.LOG.slowConnectionDisconnected(name, connectionId, lane.held, lane.copied);
                }
            }
        } else {
            lane.held++;
        }
        lane.queue.add(bytes == null ? polled : new Waiting(buffer, byteLen, polled.hasImm(), polled.immData(), qpNum,
                connectionId, bytes));
        waiting++;
        if (!lane.busy && !lane.queued) {
            lane.queued = true;
            ready.add(lane);
        }
    }

    /**
     * Takes the next ready lane's waiting messages (up to the batch's capacity) into a batch; the lane
     * is busy until {@link #ended}.
     *
     * @param batches gives an empty batch
     * @return the batch, or null when no lane is ready
     */
    Delivery next(Supplier<Delivery> batches) {
        Lane lane = ready.poll();
        if (lane == null) {
            return null;
        }
        lane.queued = false;
        lane.busy = true;
        lane.since = System.nanoTime();
        Delivery d = batches.get();
        Waiting w;
        while (d.count() < d.capacity() && (w = lane.queue.poll()) != null) {
            d.add(w);
            waiting--;
            if (w.bytes() != null) {
                lane.copied--;
            } else {
                lane.held--;
            }
        }
        return d;
    }

    /** A lane's batch came back (its buffers already released by the poller): the lane is free. */
    void ended(Delivery d) {
        Lane lane = lanes.get(d.connectionId(0));
        if (lane == null) {
            return;
        }
        lane.busy = false;
        long took = System.nanoTime() - lane.since;
        // the first batch sets the average: ramping up from 0 would make the next batches look stalled
        typicalBatchNanos = typicalBatchNanos == 0 ? Math.max(1, took) : typicalBatchNanos + (took - typicalBatchNanos) / 16;
        if (!lane.queue.isEmpty()) {
            lane.queued = true;
            ready.add(lane);
        } else {
            lanes.remove(lane.connectionId); // ids are never reused: an idle lane is forgotten
        }
    }

    /**
     * The drain timeout passed: every waiting message is dropped from its lane, its buffer released.
     *
     * @return messages dropped (acknowledged, never delivered: counted undelivered by the caller)
     */
    int abandon() {
        int n = 0;
        for (Lane lane : lanes.values()) {
            Waiting w;
            while ((w = lane.queue.poll()) != null) {
                if (w.buffer() >= 0) {
                    buffers.release(w.buffer());
                    lane.held--;
                }
                n++;
            }
        }
        ready.clear();
        waiting = 0;
        return n;
    }

    /**
     * @return whether the connections keep up, so that the poller may take more completions: every
     *         connection but the stalled ones has room below maxHeld for what the next poll can take
     *         ({@value Poller#BATCH}, or the receives posted if fewer: a poll yields no more), and they
     *         have fewer than {@value Poller#BATCH} messages waiting in all (see the class comment)
     */
    boolean keepingUp() {
        int pollable = (int) Math.min(Poller.BATCH, buffers.outstanding());
        long stallAfter = Math.max(STALL_FLOOR_NANOS, STALL_FACTOR * typicalBatchNanos);
        long now = System.nanoTime();
        int stalled = 0;
        int gone = 0;
        for (Lane lane : lanes.values()) {
            if (lane.stalled(now, stallAfter)) {
                stalled++;
            }
            if (!links.isConnected(lane.qpNum, lane.connectionId)) {
                gone++; // its messages still wait, its connection left (evicted, disconnected)
            }
        }
        // set stalled connections apart only to serve others: with no other connection, backpressure
        boolean excludeStalled = stalled <= maxStalled && stalled < links.size() + gone;
        int behind = 0;
        for (Lane lane : lanes.values()) {
            if (excludeStalled && lane.stalled(now, stallAfter)) {
                continue;
            }
            if (lane.held + pollable > maxHeld) {
                return false; // one poll could take it past its bound while it is merely behind
            }
            behind += lane.queue.size();
        }
        return behind < Poller.BATCH;
    }

    /** @return messages waiting in lanes (not in delivery) */
    int waiting() {
        return waiting;
    }

    /** @return messages copied out of the SRQ past maxHeldPerConnection */
    long copiedOut() {
        return copiedOut.sum();
    }

    /** @return connections disconnected for holding too much */
    long evicted() {
        return evicted.sum();
    }

    private static final class Lane {
        final long connectionId;
        /** The QP its messages came on. */
        int qpNum;
        final ArrayDeque<Waiting> queue = new ArrayDeque<>();
        /** Waiting messages in receive buffers (not copied out, not in delivery). */
        int held;
        /** Waiting messages copied out. */
        int copied;
        boolean busy;
        boolean queued;
        boolean evicted;
        /** When its batch in delivery began (nanoTime), while busy. */
        long since;

        Lane(long connectionId) {
            this.connectionId = connectionId;
        }

        /** @return whether its batch has been in delivery for {@code after} ns or more */
        boolean stalled(long now, long after) {
            return busy && now - since >= after;
        }
    }
}
