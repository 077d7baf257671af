package io.rdma.srq.ra.inbound.connections;

import io.rdma.srq.ra.inbound.events.Fault;
import io.rdma.srq.ra.inbound.events.ObserverDispatch;
import io.rdma.srq.ra.support.LongRunningWork;

import io.rdma.srq.api.AsyncEventType;
import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.SrqLimitReached;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.support.DevicePresence;
import io.rdma.srq.ra.support.RcConnection;
import io.rdma.srq.ra.support.admission.Admission;
import io.rdma.srq.ra.support.admission.RejectReason;
import io.rdma.srq.verbs.AsyncEvent;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmRequest;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.SharedReceiveQueue;
import org.jboss.logging.Logger;

import java.io.Serial;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * The activation's control loop, one long-running Work: takes the listener's rdma_cm events
 * (rdma_get_cm_event(3), waiting {@value #CM_WAIT_MS} ms at most) and the device's async events
 * (ibv_get_async_event(3), without waiting), so deactivation never waits on it for long.
 * <ul>
 *   <li>CONNECT_REQUEST: decided by the activation's {@link Admission} (allowedPeers, rate, token,
 *       limits), then accepted onto a new connection on the SRQ ({@link Links#accept}); rejected
 *       (rdma_reject(3), the {@link RejectReason} in its private data) when refused or when the accept
 *       fails;</li>
 *   <li>DISCONNECTED, TIMEWAIT_EXIT of an accepted connection: it leaves ({@link Links#drop}: its QP
 *       to ERROR at once, destroyed — and its admission slot released — by a later turn, once its last
 *       completions were polled, {@link Retiring});</li>
 *   <li>IBV_EVENT_QP_LAST_WQE_REACHED: the QP it names adds no more completions ({@link Retiring});</li>
 *   <li>an accepted connection not yet ESTABLISHED ({@link HalfOpen}) that gets UNREACHABLE, REJECTED
 *       or CONNECT_ERROR, whose QP gets IBV_EVENT_QP_FATAL, or that is not ESTABLISHED within
 *       {@link HalfOpen#BOUND}: it is closed and its admission slot freed, counted
 *       ({@link #halfOpenReaped()}) and logged (SRQRA0210); an ESTABLISHED connection whose QP gets
 *       IBV_EVENT_QP_FATAL is disconnected ({@link Links#evict}), then closed at its DISCONNECTED;</li>
 *   <li>RDMA_CM_EVENT_DEVICE_REMOVAL, of the listener or of an accepted connection (rdma_cm(7): the
 *       device is going away; rxe's removal waits until every object of it is closed): the device
 *       is lost — told to the activation, which frees the run's natives and recovers;</li>
 *   <li>IBV_EVENT_SRQ_LIMIT_REACHED of the SRQ: the fill level is raised and the limit re-armed
 *       ({@link SrqLimitWatch}), and {@link SrqLimitReached} is handed to the
 *       application's observers on a Work of their own ({@link ObserverDispatch}): an observer
 *       never runs on this loop's thread, so a slow one delays no accept and no deactivation;</li>
 *   <li>IBV_EVENT_DEVICE_FATAL: the device is lost, as above;</li>
 *   <li>IBV_EVENT_PORT_ERR when no port of the device is ACTIVE any more (ibv_query_port(3)): told
 *       to the activation as a port outage, not a loss — the run is kept, nothing is freed during the
 *       outage (a host that frees its connected rdma_cm ids while its link is down may get no new
 *       connection from its peers afterwards: driver note 25), connections whose peers gave up end as
 *       usual; then IBV_EVENT_PORT_ACTIVE: the outage is over; others at debug;</li>
 *   <li>once a second ({@link DevicePresence}): the device no longer listed by its provider — being
 *       removed — is lost too (a wildcard listener gets no DEVICE_REMOVAL of its own).</li>
 * </ul>
 */
public final class ControlLoop extends LongRunningWork {
    @Serial
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(ControlLoop.class);
    private static final long CM_WAIT_MS = 20;

    private final String name;
    private final String device;
    private final Listening listener;
    private final Context context;
    private final SharedReceiveQueue srq;
    private final SrqLimitWatch limitWatch;
    private final Links links;
    private final Admission admission;
    private final ObserverDispatch observers;
    private final LongAdder limitEvents = new LongAdder();
    private final HalfOpen halfOpen;
    private final Consumer<Fault> lost;
    private final Ports ports;
    private final DevicePresence presence;
    /** Whether the ports are down since IBV_EVENT_PORT_ERR (this loop's thread only). */
    private boolean portsDown;

    /** What the loop tells its activation about a port outage (on the loop's thread). */
    public interface Ports {
        /**
         * No port of the device is ACTIVE any more (IBV_EVENT_PORT_ERR): the run stays.
         *
         * @param fault what happened, ENETDOWN
         */
        void down(Fault fault);

        /**
         * A port is ACTIVE again (IBV_EVENT_PORT_ACTIVE) after {@link #down}.
         *
         * @param port the port number
         */
        void up(int port);
    }

    /**
     * @param name              the activation's SRQ name, for logs, the thread and the event
     * @param listener          the activation's rdma_cm listener
     * @param context           its device (the async event queue)
     * @param srq               its SRQ, to recognise its limit events
     * @param limitWatch        its receive buffers, told of IBV_EVENT_SRQ_LIMIT_REACHED
     * @param links             its connections
     * @param admission         who may connect
     * @param observers         where SrqLimitReached goes (on a thread of its own)
     * @param lost              told when the device is lost (may be told more than once)
     * @param ports             told when the ports go down and come back
     */
    public ControlLoop(String name, Listening listener, Context context, SharedReceiveQueue srq, SrqLimitWatch limitWatch,
                Links links, Admission admission, ObserverDispatch observers, Consumer<Fault> lost, Ports ports) {
        super("srq-control-" + name);
        this.name = name;
        this.device = context.deviceName();
        this.listener = listener;
        this.context = context;
        this.srq = srq;
        this.limitWatch = limitWatch;
        this.links = links;
        this.admission = admission;
        this.observers = observers;
        this.lost = lost;
        this.ports = ports;
        this.presence = new DevicePresence(context, DevicePresence.PERIOD);
        this.halfOpen = new HalfOpen(name, HalfOpen.BOUND);
    }

    @Override
    protected void loop() throws VerbsException {
        while (running()) {
            Optional<CmEvent> e = listener.nextEvent(Duration.ofMillis(CM_WAIT_MS));
            if (e.isPresent()) {
                cmEvent(e.get());
            }
            Optional<AsyncEvent> a;
            while (running() && (a = context.getAsyncEvent(Duration.ZERO)).isPresent()) {
                asyncEvent(a.get());
            }
            links.reapRetired(admission::closed);
            if (!presence.stillListed()) {
                lost.accept(Fault.deviceUnlisted());
            }
            long now = System.nanoTime();
            for (HalfOpen.Waiting w : halfOpen.expired(now)) {
                reap(w, "no ESTABLISHED within " + HalfOpen.BOUND.toSeconds() + " s", now);
            }
        }
    }

    private void cmEvent(CmEvent e) {
        if (e.type() == CmEventType.CONNECT_REQUEST) {
            accept(e.request());
        } else if (e.type() == CmEventType.DEVICE_REMOVAL) {
            lost.accept(Fault.deviceRemoval());
        } else if (e.connection() != null && (e.type() == CmEventType.DISCONNECTED
                || e.type() == CmEventType.TIMEWAIT_EXIT)) {
            // by the connection itself, never by its qp_num: a late TIMEWAIT_EXIT must not end a later
            // connection on a reused QP number; the admission slot is released when the QP is destroyed
            links.drop(e.connection());
        } else if (e.connection() != null) {
            setupEvent(e);
        }
    }

    /** ESTABLISHED ends an accepted connection's wait; UNREACHABLE, REJECTED, CONNECT_ERROR end the connection. */
    private void setupEvent(CmEvent e) {
        int qpNum;
        try {
            qpNum = e.connection().qp().qpNum();
        } catch (IllegalStateException closed) {
            return; // an event of a connection whose QP was destroyed meanwhile (it had left)
        }
        HalfOpen.Waiting w = halfOpen.remove(qpNum);
        if (w != null && (e.type() == CmEventType.UNREACHABLE || e.type() == CmEventType.REJECTED
                || e.type() == CmEventType.CONNECT_ERROR)) {
            reap(w, "RDMA_CM_EVENT_" + e.type() + (e.status() == 0 ? "" : " (status " + e.status() + ")"),
                    System.nanoTime());
        }
    }

    /**
     * Closes a connection that ended before it was established and frees its admission slot, as a
     * DISCONNECTED does; nothing when it is gone already or its QP number has a later connection.
     */
    private void reap(HalfOpen.Waiting w, String why, long now) {
        int qpNum = w.qpNum();
        if (!links.holds(qpNum, w.link())) {
            return;
        }
        links.drop(qpNum); // its admission slot is released when its QP is destroyed (Retiring)
        halfOpen.reaped(w, why, now);
    }

    /** IBV_EVENT_QP_FATAL of a connection's QP: reaped when not yet established, else disconnected. */
    private void qpFatal(QueuePair qp) {
        int qpNum;
        try {
            qpNum = qp.qpNum();
        } catch (IllegalStateException destroyed) {
            return; // its connection had left and was destroyed since the event was queued
        }
        HalfOpen.Waiting w = halfOpen.remove(qpNum);
        if (w != null) {
            reap(w, "IBV_EVENT_QP_FATAL", System.nanoTime());
        } else if (links.evict(qpNum, links.connectionId(qpNum))) {
            LOG.debugf("activation %s: IBV_EVENT_QP_FATAL on QP %d: disconnected", name, qpNum);
        }
    }

    private void accept(CmRequest request) {
        InetSocketAddress from = request.remoteAddress();
        RejectReason refused = admission.admit(from, request.localAddress(), request.privateData());
        if (refused != null) {
            reject(request, refused);
            return;
        }
        try {
            RcConnection link = links.accept(request);
            admission.accepted(from, link.qpNum());
            halfOpen.accepted(link, from, System.nanoTime());
            LOG.debugf("activation %s: accepted %s on QP %d", name, from, link.qpNum());
        } catch (RuntimeException failure) {
            admission.acceptFailed(from, failure.getMessage()); // counted, logged rate-limited (SRQRA0312)
            reject(request, RejectReason.ACCEPT_FAILED);
        }
    }

    private static void reject(CmRequest request, RejectReason reason) {
        try {
            request.reject(reason.toPrivateData());
        } catch (RuntimeException ignored) {
            // the peer times out
        }
    }

    private void asyncEvent(AsyncEvent e) {
        if (e.type() == AsyncEventType.SRQ_LIMIT_REACHED && e.element() == srq) {
            limitReached();
        } else if (e.type() == AsyncEventType.QP_LAST_WQE_REACHED && e.element() != null) {
            links.lastWqeReached(e.element());
        } else if (e.type() == AsyncEventType.QP_FATAL && e.element(QueuePair.class).isPresent()) {
            qpFatal(e.element(QueuePair.class).get());
        } else if (e.type() == AsyncEventType.DEVICE_FATAL) {
            lost.accept(Fault.deviceFatal());
        } else if (e.type() == AsyncEventType.PORT_ERR && !portsDown && !anyPortActive()) {
            portsDown = true;
            ports.down(Fault.portError(e.portNum()));
        } else if (e.type() == AsyncEventType.PORT_ACTIVE && portsDown) {
            portsDown = false;
            ports.up(e.portNum());
        } else {
            LOG.debugf("activation %s: async event %s", name, e.type());
        }
    }

    /** @return whether a port of the device is ACTIVE (the listener may accept on any); false when it cannot be queried */
    private boolean anyPortActive() {
        try {
            int ports = context.queryDevice().physPortCnt();
            for (int p = 1; p <= ports; p++) {
                if (context.queryPort(p).isActive()) {
                    return true;
                }
            }
        } catch (RuntimeException e) {
            LOG.debugf("activation %s: querying the ports of %s: %s", name, device, e.getMessage());
        }
        return false;
    }

    private void limitReached() {
        limitEvents.increment();
        observers.fire(limitWatch.onLimitReached(name, device));
    }

    /** @return accepted connections closed before they were established ({@link HalfOpen}) */
    public long halfOpenReaped() {
        return halfOpen.reapedCount();
    }

    /** @return IBV_EVENT_SRQ_LIMIT_REACHED events taken */
    public long limitEvents() {
        return limitEvents.sum();
    }
}
