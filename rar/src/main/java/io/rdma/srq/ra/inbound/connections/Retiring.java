package io.rdma.srq.ra.inbound.connections;


import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.support.RcConnection;
import io.rdma.srq.ra.support.Teardown;
import io.rdma.srq.verbs.VerbsObject;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntConsumer;

/**
 * Connections leaving the activation (a peer's disconnect, an eviction, a connection that never
 * established), torn down the way the InfiniBand specification prescribes for a QP on an SRQ
 * (vol. 1, 10.3.1 and 11.6.3; driver note 18):
 * <ol>
 *   <li>the QP moves to ERROR (ibv_modify_qp(3) IBV_QPS_ERR): nothing more is acknowledged to the
 *       sender, and rdma_disconnect(3) tells the peer;</li>
 *   <li>the adapter waits until the QP can add no more completions: its
 *       IBV_EVENT_QP_LAST_WQE_REACHED (ibv_get_async_event(3)) where the driver raises it (mlx5; rxe
 *       from kernel 6.12), otherwise a quiet period of {@value #QUIET_MS} ms after the move to ERROR
 *       (rxe on 6.1 never raises it, driver note 8; its responder may still write the completions of
 *       packets that arrived just before). Whether the device raises the event is learnt: until one
 *       came the adapter waits {@value #FIRST_EVENT_WAIT_MS} ms for it; after one came, up to
 *       {@value #EVENT_WAIT_MS} ms; after a wait that saw none, the quiet period alone;</li>
 *   <li>the poller polls the CQ empty after that moment ({@link CqSweep}): every completion of the
 *       QP is taken, delivered or counted like any other, its receive buffer back to the SRQ;</li>
 *   <li>only then the QP, its send CQ and rdma_cm id are destroyed, and the connection's admission
 *       slot released.</li>
 * </ol>
 * The control loop reaps ({@link #reap}) every turn, so a QP leaves within the wait above plus a
 * turn (20 ms) once delivery has taken its completions; a poller delivering inline (maxConcurrency 1)
 * polls again when its batch returns. Thread-safe.
 */
public final class Retiring {
    /** Quiet period after ERROR where no IBV_EVENT_QP_LAST_WQE_REACHED is expected, ms (as the drain's). */
    static final long QUIET_MS = CqSweep.QUIET_MS;
    /** How long to wait for IBV_EVENT_QP_LAST_WQE_REACHED before one was ever seen on the device, ms. */
    static final long FIRST_EVENT_WAIT_MS = 100;
    /** How long to wait for it on a device that raised it before, ms: a bound, never reached on mlx5. */
    static final long EVENT_WAIT_MS = 1_000;
    private static final Logger LOG = Logger.getLogger(Retiring.class);

    private enum LastWqe { UNKNOWN, RAISED, NEVER }

    private final String name;
    private final CqSweep sweep;
    private final List<Leaving> leaving = new ArrayList<>();
    private final LongAdder closed = new LongAdder();
    private final LongAdder closedOnLastWqe = new LongAdder();
    /** Guarded by this. */
    private LastWqe device = LastWqe.UNKNOWN;
    /** QPs whose IBV_EVENT_QP_LAST_WQE_REACHED came before their teardown began (in ERROR already). Guarded by this. */
    private final Set<VerbsObject> early = Collections.newSetFromMap(new IdentityHashMap<>());

    /** A leaving connection; its fields guarded by the {@link Retiring}. */
    private static final class Leaving {
        final RcConnection link;
        /** nanoTime right after its QP was moved to ERROR; valid when {@link #inError}. */
        long errorAt;
        boolean inError;
        /** nanoTime of its IBV_EVENT_QP_LAST_WQE_REACHED; valid when {@link #lastWqe}. */
        long lastWqeAt;
        boolean lastWqe;

        Leaving(RcConnection link) {
            this.link = link;
        }
    }

    /**
     * @param name  the activation's SRQ name, for logs
     * @param sweep what the poller says of the CQ
     */
    Retiring(String name, CqSweep sweep) {
        this.name = name;
        this.sweep = sweep;
    }

    /**
     * Starts a connection's teardown: its QP to ERROR, rdma_disconnect(3), quietly (a QP that cannot
     * be moved is still waited for, by the quiet period: it may have been in ERROR already).
     *
     * @param link the connection, no longer reachable for replies
     */
    void add(RcConnection link) {
        Leaving l = new Leaving(link);
        synchronized (this) {
            // listed before the move to ERROR: its QP_LAST_WQE_REACHED may be read at once by the control loop
            if (early.remove(link.qp())) {
                l.lastWqe = true;
                l.lastWqeAt = System.nanoTime();
            }
            leaving.add(l);
        }
        sweep.want();
        try {
            link.qp().moveToError();
        } catch (RuntimeException e) {
            LOG.debugf("activation %s: QP %d to ERROR: %s", name, link.qpNum(), e.getMessage());
        }
        synchronized (this) {
            l.errorAt = System.nanoTime();
            l.inError = true;
        }
        try {
            if (link.connection() != null) {
                link.connection().disconnect();
            }
        } catch (RuntimeException e) {
            LOG.debugf("activation %s: rdma_disconnect of QP %d: %s", name, link.qpNum(), e.getMessage());
        }
    }

    /**
     * IBV_EVENT_QP_LAST_WQE_REACHED came for {@code qp}: the device raises it, and that QP will add no
     * more completions.
     *
     * @param qp the event's element
     * @param live whether {@code qp} is one of the activation's connections not yet leaving (its QP went
     *             to ERROR before its teardown began): remembered for when it does
     */
    synchronized void lastWqeReached(VerbsObject qp, boolean live) {
        device = LastWqe.RAISED;
        for (Leaving l : leaving) {
            if (l.link.qp() == qp) {
                if (!l.lastWqe) {
                    l.lastWqe = true;
                    l.lastWqeAt = System.nanoTime();
                }
                return;
            }
        }
        if (live) {
            early.add(qp);
        }
    }

    /**
     * Destroys every leaving connection whose completions have all been taken (see the class comment).
     *
     * @param released told the qp_num of each destroyed connection (its admission slot), after the destroy
     * @return connections destroyed
     */
    int reap(IntConsumer released) {
        List<RcConnection> done = new ArrayList<>();
        long now = System.nanoTime();
        synchronized (this) {
            for (Iterator<Leaving> it = leaving.iterator(); it.hasNext(); ) {
                Leaving l = it.next();
                long last = lastCompletionBy(l, now);
                if (last != Long.MAX_VALUE && sweep.emptiedSince(last)) {
                    it.remove();
                    done.add(l.link);
                    closed.increment();
                    if (l.lastWqe) {
                        closedOnLastWqe.increment();
                    }
                }
            }
        }
        for (RcConnection link : done) {
            int qpNum = link.qpNum();
            Teardown.quietly(link);
            sweep.done();
            released.accept(qpNum);
        }
        return done.size();
    }

    /**
     * @return the nanoTime after which {@code l} adds no completion, or {@link Long#MAX_VALUE} while
     *         that is not known yet
     */
    private long lastCompletionBy(Leaving l, long now) {
        if (l.lastWqe) {
            return l.lastWqeAt;
        }
        if (!l.inError) {
            return Long.MAX_VALUE;
        }
        long waited = now - l.errorAt;
        long quiet = TimeUnit.MILLISECONDS.toNanos(QUIET_MS);
        switch (device) {
            case NEVER -> {
                return waited >= quiet ? l.errorAt + quiet : Long.MAX_VALUE;
            }
            case RAISED -> {
                return waited >= TimeUnit.MILLISECONDS.toNanos(EVENT_WAIT_MS) ? l.errorAt + quiet : Long.MAX_VALUE;
            }
            default -> {
                if (waited < TimeUnit.MILLISECONDS.toNanos(FIRST_EVENT_WAIT_MS)) {
                    return Long.MAX_VALUE;
                }
                device = LastWqe.NEVER;
                LOG.debugf("activation %s: no IBV_EVENT_QP_LAST_WQE_REACHED within %d ms: QPs leave after a quiet "
                        + "period of %d ms (driver note 8)", name, FIRST_EVENT_WAIT_MS, QUIET_MS);
                return l.errorAt + quiet;
            }
        }
    }

    /** Destroys every leaving connection at once (deactivation, once the CQ was drained), quietly. */
    void closeAll() {
        List<Leaving> all;
        synchronized (this) {
            all = List.copyOf(leaving);
            leaving.clear();
            early.clear();
        }
        for (Leaving l : all) {
            Teardown.quietly(l.link);
            sweep.done();
        }
    }

    /** @return connections leaving now (in ERROR, not yet destroyed) */
    synchronized int size() {
        return leaving.size();
    }

    /** @return connections destroyed after their last completions were taken */
    long closed() {
        return closed.sum();
    }

    /** @return of {@link #closed()}, those whose end IBV_EVENT_QP_LAST_WQE_REACHED announced */
    long closedOnLastWqe() {
        return closedOnLastWqe.sum();
    }
}
