package io.rdma.srq.ra.inbound.connections;

import io.rdma.srq.ra.inbound.events.Fault;
import io.rdma.srq.ra.support.LongRunningWork;

import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.support.RcConnection;
import io.rdma.srq.ra.support.admission.Admission;
import io.rdma.srq.ra.support.admission.AuthKey;
import io.rdma.srq.verbs.ConnectRejectedException;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.ra.support.RaLogger;
import org.jboss.logging.Logger;

import java.io.Serial;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The activation's outgoing connections (activation property {@code connectTo}): keeps
 * {@code connectCount} RC connections to a remote rdma_cm listener — or, with
 * {@code connectTo=service:NAME}, spread over every provider of the service (connection i to provider
 * i mod n, in the directory's order), each on a QP of the activation's SRQ, so the remote side's
 * messages are delivered like those of accepted connections. Every {@value #REBALANCE_MS} ms the
 * providers are read again: a connection whose provider should now be another (a provider joined,
 * or left) is dropped — losslessly, as a peer's disconnect ({@link Links#drop(int, RcConnection)}) —
 * and made again to the right one (a rebalance, SRQRA0507). A connection
 * that fails or is lost (DISCONNECTED, answered with rdma_disconnect(3)) is tried again after
 * {@code reconnectInterval}; RDMA_CM_EVENT_DEVICE_REMOVAL on one of them means the device is going
 * away, which is told to the activation (it recovers, and a new connector connects again). Runs as one long-running Work; every wait is bounded, so
 * the loop ends within the connect timeout ({@value #CONNECT_TIMEOUT_S} s) of its release. The
 * connections stay in {@link Links} when it ends: the activation closes them.
 */
public final class Connector extends LongRunningWork {
    @Serial
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(Connector.class);
    private static final long CONNECT_TIMEOUT_S = 2;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(CONNECT_TIMEOUT_S);
    private static final long IDLE_MS = 20;
    /** How often the targets are read again (a service's providers). */
    static final long REBALANCE_MS = 250;

    private final String name;
    private final Targets targets;
    /** Each slot's listener, while it is connected (or connecting). */
    private final InetSocketAddress[] slotTarget;
    private final java.util.concurrent.atomic.AtomicLong rebalances = new java.util.concurrent.atomic.AtomicLong();
    private boolean warnedNone;
    private final Duration interval;
    private final Links links;
    private final RcConnection[] slots;
    /** The qp_num of each slot's connection, read at its connect: unreadable once its teardown closed it. */
    private final int[] qpNums;
    private final long[] nextAttempt;
    private final boolean[] warned;
    private final List<AuthKey> keys;
    private final Consumer<Fault> lost;

    /**
     * @param name     the activation's SRQ name, for logs
     * @param targets  the listener(s) to connect to
     * @param count    connections to keep, ≥ 1
     * @param interval pause before trying a failed or lost connection again
     * @param links    the activation's connections: makes them on its SRQ, replies find theirs there
     * @param keys     the activation's authKey keys: each connect presents a token of the first; empty for none
     * @param lost     told on RDMA_CM_EVENT_DEVICE_REMOVAL of a connection
     */
    public Connector(String name, Targets targets, int count, Duration interval, Links links, List<AuthKey> keys,
              Consumer<Fault> lost) {
        super("srq-connector-" + name);
        this.name = name;
        this.targets = targets;
        this.slotTarget = new InetSocketAddress[count];
        this.interval = interval;
        this.links = links;
        this.slots = new RcConnection[count];
        this.qpNums = new int[count];
        this.nextAttempt = new long[count];
        this.warned = new boolean[count];
        this.keys = List.copyOf(keys);
        this.lost = lost;
    }

    /** Connects what is missing, watches what is connected, until released. */
    @Override
    protected void loop() throws InterruptedException {
        long start = System.nanoTime();
        for (int i = 0; i < slots.length; i++) {
            nextAttempt[i] = start;
        }
        List<InetSocketAddress> now = targets.now();
        long read = System.nanoTime();
        while (running()) {
            if (System.nanoTime() - read >= REBALANCE_MS * 1_000_000L) {
                now = targets.now();
                read = System.nanoTime();
                rebalance(now);
            }
            for (int i = 0; i < slots.length && running(); i++) {
                if (slots[i] == null) {
                    if (System.nanoTime() - nextAttempt[i] >= 0) {
                        connect(i, now);
                    }
                } else {
                    watch(i);
                }
            }
            Thread.sleep(IDLE_MS);
        }
    }

    /** {@return connections moved to another provider since the start (a provider joined or left)} */
    public long rebalances() {
        return rebalances.get();
    }

    /** The listener slot {@code i} should be connected to, or null when there is none. */
    private static InetSocketAddress desired(int i, List<InetSocketAddress> now) {
        return now.isEmpty() ? null : now.get(i % now.size());
    }

    /** Drops each connection whose listener is no longer the one its slot should have; the loop connects it again. */
    private void rebalance(List<InetSocketAddress> now) {
        for (int i = 0; i < slots.length; i++) {
            RcConnection link = slots[i];
            InetSocketAddress want = desired(i, now);
            if (link != null && want != null && !want.equals(slotTarget[i])) {
                RaLogger.LOG.connectionRebalanced(name, i, slotTarget[i], want, targets.describe());
                links.drop(qpNums[i], link);
                slots[i] = null;
                nextAttempt[i] = System.nanoTime();
                rebalances.incrementAndGet();
            }
        }
    }

    private void connect(int i, List<InetSocketAddress> now) {
        InetSocketAddress remote = desired(i, now);
        if (remote == null) {
            nextAttempt[i] = System.nanoTime() + Math.min(interval.toNanos(), REBALANCE_MS * 1_000_000L);
            if (!warnedNone && running()) {
                RaLogger.LOG.connectFailed(name, i, targets.describe(), interval.toMillis(), "no provider is listed yet");
                warnedNone = true;
            }
            return;
        }
        warnedNone = false;
        try {
            RcConnection link = links.connect(remote, CONNECT_TIMEOUT, Admission.privateDataFor(keys, remote));
            slots[i] = link;
            slotTarget[i] = remote;
            qpNums[i] = link.qpNum();
            warned[i] = false;
            LOG.debugf("activation %s: connected to %s on QP %d", name, remote, link.qpNum());
        } catch (RuntimeException e) {
            nextAttempt[i] = System.nanoTime() + interval.toNanos();
            String why = e instanceof ConnectRejectedException r
                    ? e.getMessage() + ": " + Admission.describeReject(r.privateData()) : e.getMessage();
            if (running()) {
                if (warned[i]) {
                    LOG.debugf("activation %s: connection %d to %s failed again: %s", name, i, remote, why);
                } else {
                    RaLogger.LOG.connectFailed(name, i, remote, interval.toMillis(), why);
                    warned[i] = true;
                }
            }
        }
    }

    /**
     * Looks for the end of slot {@code i}'s connection: its DISCONNECTED or DEVICE_REMOVAL, or its
     * having left already (evicted, or IBV_EVENT_QP_FATAL: its teardown may have closed it meanwhile,
     * {@link Retiring}). It is dropped by identity, never by its QP number, which a later connection
     * may have taken.
     */
    private void watch(int i) {
        RcConnection link = slots[i];
        int qpNum = qpNums[i];
        if (links.holds(qpNum, link)) {
            try {
                Optional<CmEvent> e = link.connection().nextEvent(Duration.ZERO);
                if (e.isEmpty()) {
                    return;
                }
                CmEventType type = e.get().type();
                if (type != CmEventType.DISCONNECTED && type != CmEventType.DEVICE_REMOVAL) {
                    return;
                }
                LOG.debugf("activation %s: %s from %s on QP %d", name, type, slotTarget[i], qpNum);
                if (type == CmEventType.DEVICE_REMOVAL) {
                    lost.accept(Fault.deviceRemoval());
                }
            } catch (RuntimeException failure) {
                LOG.debugf("activation %s: connection %d to %s: %s", name, i, slotTarget[i], failure.getMessage());
            }
            links.drop(qpNum, link);
        }
        slots[i] = null;
        nextAttempt[i] = System.nanoTime() + interval.toNanos();
    }
}
