package io.rdma.srq.ra.management;

import java.util.Objects;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * One figure the adapter reports to WildFly: its name (the management attribute, and after WildFly's
 * conversion the {@code /metrics} name), what it means, and how it is read from a snapshot.
 *
 * @param name        the attribute name, lower-case words joined by '-' (WildFly's style)
 * @param kind        counter (only grows while an activation runs), gauge (a level now) or text
 * @param description what the figure counts, with its unit; shown by read-resource-description
 * @param number      reads a counter or gauge; null for text
 * @param text        reads a text figure; null for counters and gauges
 * @param <S>         the snapshot it reads
 */
public record Figure<S>(String name, Kind kind, String description, ToLongFunction<S> number, Function<S, String> text) {

    /** What the value is. */
    public enum Kind {
        /** Grows by one per event; reset only by clear-statistics or a new activation. */
        COUNTER,
        /** A level now (outstanding receives, connections, 1/0 flags). */
        GAUGE,
        /** Text: provider, device, port state. */
        TEXT
    }

    /** Checks the name and that exactly the reader of the kind is given. */
    public Figure {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(description, "description");
        if (!name.matches("[a-z][a-z0-9]*(-[a-z0-9]+)*")) {
            throw new IllegalArgumentException("figure name must be lower-case words joined by '-', got '" + name + "'");
        }
        if ((kind == Kind.TEXT) != (text != null) || (kind == Kind.TEXT) == (number != null)) {
            throw new IllegalArgumentException("figure " + name + ": a " + kind + " needs exactly its own reader");
        }
    }

    /**
     * @param name        the attribute name
     * @param description meaning and unit
     * @param value       the running total since the activation started
     * @param <S>         snapshot type
     * @return a counter
     */
    public static <S> Figure<S> counter(String name, String description, ToLongFunction<S> value) {
        return new Figure<>(name, Kind.COUNTER, description, value, null);
    }

    /**
     * @param name        the attribute name
     * @param description meaning and unit
     * @param value       the level now
     * @param <S>         snapshot type
     * @return a gauge
     */
    public static <S> Figure<S> gauge(String name, String description, ToLongFunction<S> value) {
        return new Figure<>(name, Kind.GAUGE, description, value, null);
    }

    /**
     * @param name        the attribute name
     * @param description meaning
     * @param value       the text now
     * @param <S>         snapshot type
     * @return a text figure
     */
    public static <S> Figure<S> text(String name, String description, Function<S, String> value) {
        return new Figure<>(name, Kind.TEXT, description, null, value);
    }

    /** @return the Java type IronJacamar's StatisticsPlugin reports: long.class, or String.class for text */
    public Class<?> type() {
        return kind == Kind.TEXT ? String.class : long.class;
    }

    /** @return whether the value is a number (a counter or a gauge) */
    public boolean numeric() {
        return kind != Kind.TEXT;
    }
}
