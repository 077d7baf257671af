package io.rdma.srq.ra.inbound.lifecycle;

import io.rdma.srq.api.ActivationStatistics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The counters of an activation over all its runs: a device loss ends a run and a new one starts,
 * and counters must only grow. Counters (posted, completed, delivered, …) are the sums over the
 * ended runs and the current one, read live (a run's last deliveries may still be counted after it
 * ended); gauges (outstanding, fill, connections, paused) are the current run's, 0 while there is
 * none. What a run left undelivered because its device was lost is counted as lost, not undelivered.
 * A run that has freed everything counts no more: its final figures are kept, the run itself is let go
 * (so recovering many times holds no old runs).
 */
final class RunTotals {
    private final List<ActivationRun> ended = new CopyOnWriteArrayList<>();
    /** The final figures of ended runs that have freed everything, and their losses; guarded by this. */
    private final List<ActivationStatistics> settled = new java.util.ArrayList<>();
    private long settledLost;

    /** @param run a run that was stopped; its counters stay in the totals */
    void ended(ActivationRun run) {
        ended.add(run);
    }

    /** @return messages acknowledged to their senders and lost with a device, over the ended runs */
    synchronized long lostAtDeviceLoss() {
        return settledLost + ended.stream().mapToLong(ActivationRun::lostAtDeviceLoss).sum();
    }

    /**
     * Keeps the final figures of ended runs that have freed everything, and lets those runs go; not
     * {@code current}, which the activation still holds (and reads live).
     */
    private synchronized void settle(ActivationRun current) {
        for (ActivationRun run : ended) {
            if (run != current && run.freed()) {
                settled.add(run.statistics());
                settledLost += run.lostAtDeviceLoss();
                ended.remove(run);
            }
        }
    }

    /**
     * @param name    the activation's name
     * @param device  its device
     * @param current the current run, or null while there is none
     * @return the counters over every run, the gauges of {@code current}
     */
    ActivationStatistics statistics(String name, String device, ActivationRun current) {
        long posted = 0, completed = 0, delivered = 0, undelivered = 0, failures = 0, redelivered = 0;
        long deadLettered = 0, pauses = 0, errors = 0, limitEvents = 0, copiedOut = 0, slowDisconnects = 0;
        long closed = 0, closedOnLastWqe = 0;
        long halfOpenReaped = 0;
        long rebalances = 0;
        Map<String, Long> rejected = new LinkedHashMap<>();
        List<ActivationStatistics> all;
        List<ActivationRun> runs;
        long lostBefore;
        synchronized (this) {
            settle(current);
            all = new java.util.ArrayList<>(settled);
            runs = new java.util.ArrayList<>(ended);
            lostBefore = settledLost;
        }
        if (current != null && !runs.contains(current)) {
            runs.add(current);
        }
        long lostLive = 0;
        for (ActivationRun run : runs) {
            all.add(run.statistics());
            lostLive += run.lostAtDeviceLoss();
        }
        for (ActivationStatistics s : all) {
            posted += s.posted();
            completed += s.completed();
            delivered += s.delivered();
            undelivered += s.undelivered();
            failures += s.endpointFailures();
            redelivered += s.redelivered();
            deadLettered += s.deadLettered();
            pauses += s.pauses();
            errors += s.errorCompletions();
            limitEvents += s.limitEvents();
            copiedOut += s.copiedOut();
            slowDisconnects += s.slowDisconnects();
            closed += s.closedConnections();
            closedOnLastWqe += s.closedOnLastWqe();
            halfOpenReaped += s.halfOpenReaped();
            rebalances += s.rebalances();
            s.rejectedByReason().forEach((k, v) -> rejected.merge(k, v, Long::sum));
        }
        undelivered -= lostBefore + lostLive; // lost with a device, counted as such
        ActivationStatistics now = current == null ? null : current.statistics();
        return ActivationStatistics.builder().srqName(name).device(device).posted(posted).completed(completed)
                .delivered(delivered).undelivered(undelivered).endpointFailures(failures).redelivered(redelivered)
                .deadLettered(deadLettered).pauses(pauses).paused(now != null && now.paused()).errorCompletions(errors)
                .limitEvents(limitEvents).outstanding(now == null ? 0 : now.outstanding())
                .fill(now == null ? 0 : now.fill()).connections(now == null ? 0 : now.connections())
                .rejectedByReason(rejected).copiedOut(copiedOut).slowDisconnects(slowDisconnects)
                .halfOpenReaped(halfOpenReaped).rebalances(rebalances)
                .serviceProviders(now == null ? 0 : now.serviceProviders())
                .retained(now == null ? 0 : now.retained())
                .leavingConnections(now == null ? 0 : now.leavingConnections()).closedConnections(closed)
                .closedOnLastWqe(closedOnLastWqe).build();
    }
}
