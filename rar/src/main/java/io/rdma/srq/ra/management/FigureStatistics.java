package io.rdma.srq.ra.management;

import org.jboss.jca.core.spi.statistics.StatisticsPlugin;

import java.io.Serial;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * IronJacamar's statistics plugin over one table of {@link StatisticsTable}: WildFly's
 * resource-adapters subsystem registers its names once, as the attributes (and metrics) of a
 * {@code statistics=extended} resource, and calls {@link #getValue} on every read. The names are the
 * table's, fixed; the values are read live from the source, so what starts later (an MDB deployed
 * after the adapter) shows on the next read.
 *
 * <p>{@code statistics-enabled} ({@link #setEnabled}): while false nothing is collected — the source
 * is not read for numbers and every counter and gauge reads 0; text figures (device, provider) still
 * show. Enabling again, or {@link #clear() clear-statistics}, starts the counters from 0. A counter
 * whose source restarted below its start point (a redeployed activation) counts from the new start.
 *
 * @param <S> the snapshot the table reads
 */
public final class FigureStatistics<S> implements StatisticsPlugin {
    @Serial
    private static final long serialVersionUID = 1L;

    private final Map<String, Figure<S>> figures = new LinkedHashMap<>();
    private final transient Supplier<Optional<S>> source;
    private final Map<String, Long> start = new ConcurrentHashMap<>();
    private volatile boolean enabled = true;

    /**
     * @param table  the figures, in the order shown
     * @param source the snapshot now; empty while there is nothing to read (numbers read 0, text "")
     */
    public FigureStatistics(Iterable<Figure<S>> table, Supplier<Optional<S>> source) {
        for (Figure<S> f : table) {
            if (figures.putIfAbsent(f.name(), f) != null) {
                throw new IllegalArgumentException("figure " + f.name() + " is in the table twice");
            }
        }
        this.source = source;
    }

    @Override
    public Set<String> getNames() {
        return Collections.unmodifiableSet(figures.keySet());
    }

    @Override
    public Class<?> getType(String name) {
        Figure<S> f = figures.get(name);
        return f == null ? null : f.type();
    }

    @Override
    public String getDescription(String name) {
        Figure<S> f = figures.get(name);
        return f == null ? null : f.description();
    }

    @Override
    public String getDescription(String name, Locale locale) {
        return getDescription(name);
    }

    /**
     * @param name a figure name
     * @return a Long for counters and gauges (0 while disabled), a String for text; null for a name
     *         not in the table
     */
    @Override
    public Object getValue(String name) {
        Figure<S> f = figures.get(name);
        if (f == null) {
            return null;
        }
        if (!f.numeric()) {
            return source.get().map(f.text()).orElse("");
        }
        if (!enabled) {
            return 0L;
        }
        long now = source.get().map(s -> f.number().applyAsLong(s)).orElse(0L);
        if (f.kind() != Figure.Kind.COUNTER) {
            return now;
        }
        long from = start.getOrDefault(name, 0L);
        if (now < from) {
            start.put(name, 0L);
            from = 0;
        }
        return now - from;
    }

    @Override
    public boolean isEnabled() {
        return enabled;
    }

    @Override
    public synchronized void setEnabled(boolean enable) {
        if (enable && !enabled) {
            restartCounters();
        }
        enabled = enable;
    }

    @Override
    public synchronized void clear() {
        restartCounters();
    }

    private void restartCounters() {
        Optional<S> now = source.get();
        for (Figure<S> f : figures.values()) {
            if (f.kind() == Figure.Kind.COUNTER) {
                start.put(f.name(), now.map(s -> f.number().applyAsLong(s)).orElse(0L));
            }
        }
    }
}
