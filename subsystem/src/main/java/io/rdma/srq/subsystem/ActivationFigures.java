package io.rdma.srq.subsystem;

import io.rdma.srq.ra.management.ActivationControl;
import io.rdma.srq.ra.management.ActivationDirectory;
import io.rdma.srq.ra.management.ActivationView;
import io.rdma.srq.ra.management.FigureStatistics;
import io.rdma.srq.ra.management.StatisticsTable;

import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;

/**
 * The figures of each running activation as management reads them: {@link StatisticsTable#ACTIVATION}
 * over a {@link FigureStatistics} per activation, so that {@code reset-statistics} restarts its counters
 * from 0 (a baseline; the activation's own counts, in its log and its CDI events, are untouched). Kept
 * while the activation is referenced anywhere, dropped with it.
 */
final class ActivationFigures {
    private static final Map<ActivationControl, FigureStatistics<ActivationView>> FIGURES = new WeakHashMap<>();

    private ActivationFigures() {
    }

    /**
     * @param control a running activation
     * @return its figures (created at the first read)
     */
    static synchronized FigureStatistics<ActivationView> of(ActivationControl control) {
        return FIGURES.computeIfAbsent(control, c -> new FigureStatistics<>(StatisticsTable.ACTIVATION, () -> view(c)));
    }

    /**
     * @param control an activation
     * @return its view now, empty once it stopped
     */
    static Optional<ActivationView> view(ActivationControl control) {
        for (ActivationView v : ActivationDirectory.all()) {
            if (v.control() == control) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }
}
