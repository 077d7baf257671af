package io.rdma.srq.ra.management;

import io.rdma.srq.ra.support.admission.RejectReason;

import java.util.ArrayList;
import java.util.List;

import static io.rdma.srq.ra.management.Figure.counter;
import static io.rdma.srq.ra.management.Figure.gauge;
import static io.rdma.srq.ra.management.Figure.text;

/**
 * The one mapping from what the adapter knows to what WildFly shows: each line is an attribute of a
 * {@code statistics=extended} resource (jboss-cli) and, numeric ones, a {@code /metrics} line named
 * {@code wildfly_resource_adapters_extended_<name with '_'>}. Adding a figure is one line here; the
 * adapter-wide totals ({@link #ADAPTER}) follow the activation lines by themselves.
 *
 * <p>Where each table appears (docs/operating.md):
 * <ul>
 *   <li>{@link #ACTIVATION}: an {@link SrqActivationMonitor} admin object, one per watched srqName;</li>
 *   <li>{@link #ADAPTER}: the resource adapter (every activation it runs, summed);</li>
 *   <li>{@link #DEFINITION}: each connection definition (SrqManagedConnectionFactory), and an
 *       {@link SrqDefinitionMonitor} for the archive's own definition, which WildFly shows nowhere else.</li>
 * </ul>
 */
public final class StatisticsTable {

    /** One activation, read live from the running activation with the watched srqName. */
    public static final List<Figure<ActivationView>> ACTIVATION = activationFigures();

    private static List<Figure<ActivationView>> activationFigures() {
        List<Figure<ActivationView>> figures = new ArrayList<>(List.of(
            gauge("active", "1 while an activation with this srqName runs, else 0", a -> 1),
            gauge("healthy", "1 while the activation is ACTIVE and a port of its device is ACTIVE, else 0", a -> flag(a.device().healthy())),
            gauge("state", "the activation's state: 0 STARTING (device or address not there yet), 1 ACTIVE, 2 RECOVERING"
                    + " (device lost, reopening with backoff), 3 STOPPED, 4 FAILED (redeploy), 5 STANDBY (a cluster singleton not elected here), 6 DRAINED (by management's drain)", a -> a.lifecycle().state().code()),
            text("state-name", "the activation's state by name (STARTING, ACTIVE, RECOVERING, STOPPED, FAILED, STANDBY, DRAINED)",
                    a -> a.lifecycle().state().name()),
            counter("recoveries", "times the activation came back ACTIVE after losing its device (DEVICE_FATAL, PORT_ERR,"
                    + " DEVICE_REMOVAL) or a loop", a -> a.lifecycle().recoveries()),
            counter("loop-failures", "times a loop of the activation (poller, control loop, connector) died on an exception"
                    + " or Error; each made it RECOVERING and open a new run (WARN SRQRA0408)", a -> a.lifecycle().loopFailures()),
            counter("lost-at-device-loss", "messages acknowledged to their senders but lost with a device: left in the CQ"
                    + " or in batches not begun when a lost run's drain ended", a -> a.lifecycle().lostAtDeviceLoss()),
            text("srq-name", "the activation's SRQ name (activation property srqName)", a -> a.statistics().srqName()),
            text("provider", "the verbs provider the activation uses (ibverbs, soft, fabric)", a -> a.device().provider()),
            text("device", "the RDMA device the activation uses", a -> a.device().device()),
            text("port-state", "ibv_query_port state of the device's ports, e.g. 1:ACTIVE", a -> a.device().ports()),
            counter("receives-posted", "receive WRs posted to the SRQ (ibv_post_srq_recv), WRs", a -> a.statistics().posted()),
            counter("completions", "receive work completions polled, success and error, WCs", a -> a.statistics().completed()),
            counter("delivered", "messages delivered to an endpoint (onReceive returned or threw)", a -> a.statistics().delivered()),
            counter("endpoint-failures", "deliveries whose onReceive, beforeDelivery or afterDelivery threw", a -> a.statistics().endpointFailures()),
            counter("error-completions", "completions with a status other than IBV_WC_SUCCESS, or a wr_id or byte_len the SRQ cannot have produced (never delivered)", a -> a.statistics().errorCompletions()),
            counter("limit-events", "IBV_EVENT_SRQ_LIMIT_REACHED events taken", a -> a.statistics().limitEvents()),
            gauge("outstanding-receives", "receive WRs posted and not yet consumed, now, WRs", a -> a.statistics().outstanding()),
            gauge("srq-fill", "the fill level the SRQ is topped up to, now, WRs", a -> a.statistics().fill()),
            gauge("connections", "RC connections on the SRQ now", a -> a.statistics().connections()),
            gauge("leaving-connections", "connections whose peer left, their QP in ERROR until every completion it put"
                    + " in the CQ has been polled, now", a -> a.statistics().leavingConnections()),
            counter("closed-connections", "connections whose QP was destroyed after its last completions were polled",
                    a -> a.statistics().closedConnections()),
            counter("closed-on-last-wqe", "of closed-connections, those whose end IBV_EVENT_QP_LAST_WQE_REACHED announced"
                    + " (the others: a quiet period after ERROR)", a -> a.statistics().closedOnLastWqe()),
            counter("undelivered", "messages received (acknowledged to their sender) but never delivered: left when"
                    + " deactivation's drainTimeout passed, or calls refused by a stopping MDB, answered 'not run'",
                    a -> a.statistics().undelivered()),
            counter("redeliveries", "delivery attempts after a failed one (maxDeliveryAttempts)", a -> a.statistics().redelivered()),
            counter("dead-letters", "messages whose every delivery attempt failed (SrqDeadLetter fired)", a -> a.statistics().deadLettered()),
            counter("pauses", "times delivery paused after maxSequentialDeliveryFailures", a -> a.statistics().pauses()),
            gauge("paused", "1 while delivery is paused after failures, else 0", a -> flag(a.statistics().paused())),
            counter("copied-out", "messages copied out of the SRQ because their connection held maxHeldPerConnection"
                    + " receive buffers (waiting under ordering=connection, or retained)", a -> a.statistics().copiedOut()),
            gauge("retained-buffers", "receive buffers kept past their call by RetainedMessages now, buffers",
                    a -> a.statistics().retained()),
            counter("slow-disconnects", "connections disconnected for holding maxHeldPerConnection buffers and as many"
                    + " waiting copies (ordering=connection; WARN SRQRA0330)", a -> a.statistics().slowDisconnects()),
            counter("half-open-reaped", "accepted connections closed before they were established (UNREACHABLE,"
                    + " REJECTED, CONNECT_ERROR, QP_FATAL, or no ESTABLISHED within 10 s; WARN SRQRA0210)",
                    a -> a.statistics().halfOpenReaped()),
            counter("rebalances", "connections of connectTo=service:NAME moved to another provider because a provider"
                    + " joined or left", a -> a.statistics().rebalances()),
            gauge("service-providers", "providers of the service this activation publishes, cluster-wide, now (itself"
                    + " included; 0: not published)", a -> a.statistics().serviceProviders()),
            counter("rejected-connections", "connect requests rejected by admission control, all reasons", a -> a.statistics().rejected())));
        for (RejectReason reason : RejectReason.values()) {
            String key = reason.name();
            figures.add(counter("rejected-" + key.toLowerCase(java.util.Locale.ROOT).replace('_', '-'),
                    "connect requests rejected " + key, a -> a.statistics().rejectedByReason().getOrDefault(key, 0L)));
        }
        return List.copyOf(figures);
    }

    /** The resource adapter: how many activations it runs and each numeric activation figure summed over them. */
    public static final List<Figure<List<ActivationView>>> ADAPTER = adapterFigures();

    /** One connection definition: its device and what its open pooled connections hold. */
    public static final List<Figure<DefinitionView>> DEFINITION = List.of(
            gauge("healthy", "1 when the configured device opens and its configured port is ACTIVE, else 0", d -> flag(d.device().healthy())),
            text("provider", "the verbs provider of the definition (ibverbs, soft, fabric)", d -> d.device().provider()),
            text("device", "the RDMA device of the definition", d -> d.device().device()),
            text("port-state", "ibv_query_port state of the configured port, e.g. 1:ACTIVE", d -> d.device().ports()),
            gauge("open-connections", "pooled connections holding a device context and PD now", DefinitionView::openConnections),
            gauge("srqs", "named SRQs open on the pooled connections now", DefinitionView::srqs),
            gauge("limit-events", "IBV_EVENT_SRQ_LIMIT_REACHED taken by the SRQs of the open pooled connections", DefinitionView::limitEvents),
            gauge("peers", "peer QPs pooled with the open pooled connections now", DefinitionView::peers),
            gauge("outstanding-receives", "receive WRs posted to the pooled SRQs and not yet consumed, now, WRs", DefinitionView::outstanding),
            gauge("late-replies", "replies that found no waiting call (late, after a timeout or a closed handle), discarded, over the open pooled connections", DefinitionView::lateReplies),
            gauge("peer-errors", "peer QPs that went to the error state (e.g. a reply longer than receiveBufferSize), over the open pooled connections", DefinitionView::peerErrors),
            counter("service-failovers", "calls by service name sent to another provider because theirs refused the connect"
                    + " or answered 'not run' (docs/cluster.md)", DefinitionView::serviceFailovers));

    private StatisticsTable() {
    }

    private static List<Figure<List<ActivationView>>> adapterFigures() {
        List<Figure<List<ActivationView>>> figures = new ArrayList<>();
        figures.add(gauge("activations", "message-endpoint activations running now", List::size));
        figures.add(gauge("activations-not-active", "activations that are not ACTIVE now (STARTING, RECOVERING, FAILED)",
                all -> all.stream().filter(a -> a.lifecycle().state() != io.rdma.srq.api.ActivationState.ACTIVE).count()));
        for (Figure<ActivationView> f : ACTIVATION) {
            if (f.kind() == Figure.Kind.COUNTER) {
                figures.add(counter(f.name(), f.description() + ", summed over the adapter's activations", all -> sum(all, f)));
            } else if (f.kind() == Figure.Kind.GAUGE && !f.name().equals("active") && !f.name().equals("state")) {
                figures.add(gauge(f.name(), f.description() + ", summed over the adapter's activations", all -> sum(all, f)));
            }
        }
        return List.copyOf(figures);
    }

    private static long sum(List<ActivationView> all, Figure<ActivationView> f) {
        long total = 0;
        for (ActivationView a : all) {
            total += f.number().applyAsLong(a);
        }
        return total;
    }

    private static long flag(boolean b) {
        return b ? 1 : 0;
    }
}
