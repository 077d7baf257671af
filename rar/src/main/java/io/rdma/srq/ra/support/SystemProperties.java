package io.rdma.srq.ra.support;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The adapter's JVM-wide tuning knobs, read from system properties ({@code -Dsrq.spinners=2}) or, in
 * a WildFly provisioned with the layer rdma-srq, from the {@code rdma-srq} subsystem's attributes of
 * the same declaration ({@link #configure}; an attribute that is set wins over the property):
 * strictly. {@link #check()} runs at the resource adapter's start, so a mistyped value stops the
 * deployment with a message naming the property and its range; where the adapter's classes are
 * used without it (container-less), a bad value is logged at ERROR (SRQRA0005) and the default
 * used — never an Error thrown into a caller or the adapter's threads.
 */
public final class SystemProperties {
    /** {@code srq.spinners}: threads of the adapter that may busy-poll at once ({@link SpinBudget}). */
    public static final Knob SPINNERS = new Knob("srq.spinners",
            Math.min(1024, Math.max(0, Runtime.getRuntime().availableProcessors() - 1)), "the machine's processors - 1", 0, 1024,
            "threads of the adapter that may busy-poll a completion queue at once (the others park on the completion"
                    + " channel)");
    /** {@code srq.call.spinNanos}: the longest spin of a synchronous caller for its reply, ns. */
    public static final Knob CALL_SPIN_NANOS = new Knob("srq.call.spinNanos", 200_000L, 0, 1_000_000_000L,
            "the longest a synchronous caller spins for its reply before it parks, ns");

    /** Every knob, in the order documented. */
    public static final List<Knob> ALL = List.of(SPINNERS, CALL_SPIN_NANOS);

    // values set by the rdma-srq subsystem, by knob name
    private static final Map<String, Long> CONFIGURED = new ConcurrentHashMap<>();

    /**
     * One knob.
     *
     * @param name         the system property
     * @param defaultValue its value when unset or blank
     * @param defaultText  the default as documented (where it depends on the machine)
     * @param min          the least allowed value
     * @param max          the greatest allowed value
     * @param description  what it sets, with its unit (the subsystem attribute's description)
     */
    public record Knob(String name, long defaultValue, String defaultText, long min, long max, String description) {
        /**
         * A knob whose default is the same on every machine.
         *
         * @param name         the system property
         * @param defaultValue its value when unset or blank
         * @param min          the least allowed value
         * @param max          the greatest allowed value
         * @param description  what it sets, with its unit
         */
        public Knob(String name, long defaultValue, long min, long max, String description) {
            this(name, defaultValue, Long.toString(defaultValue), min, max, description);
        }

        /**
         * @return the {@code rdma-srq} subsystem's attribute of this knob: the property without {@code srq.},
         *         lower-case words joined by '-' ({@code srq.call.spinNanos}: {@code call-spin-nanos})
         */
        public String attributeName() {
            String n = name.startsWith("srq.") ? name.substring(4) : name;
            return n.replaceAll("([a-z0-9])([A-Z])", "$1-$2").replace('.', '-').toLowerCase(java.util.Locale.ROOT);
        }

        /**
         * @return the value: the subsystem's when it set one, else the system property's
         * @throws IllegalArgumentException naming the property and its range
         */
        public long read() {
            Long configured = CONFIGURED.get(name);
            return configured != null ? configured : longIn(name, defaultValue, min, max);
        }

        /** @return the value, or the default (logged at ERROR) when the value is bad */
        public long readOrDefault() {
            try {
                return read();
            } catch (IllegalArgumentException e) {
                RaLogger.LOG.badSystemProperty(e.getMessage(), defaultValue);
                return defaultValue;
            }
        }
    }

    /**
     * Reads every knob.
     *
     * @throws IllegalArgumentException naming the first bad property and its range
     */
    public static void check() {
        for (Knob k : ALL) {
            k.read();
        }
    }

    /**
     * Sets a knob from the {@code rdma-srq} subsystem (its attribute, validated there against the same
     * range). Takes effect where the value is first read: before the adapter's first use of it, which
     * is why the subsystem's attributes require a restart of the server.
     *
     * @param knob  one of {@link #ALL}
     * @param value its value, or null to fall back to the system property
     * @throws IllegalArgumentException when the value is outside the knob's range
     */
    public static void configure(Knob knob, Long value) {
        if (value == null) {
            CONFIGURED.remove(knob.name());
            return;
        }
        if (value < knob.min() || value > knob.max()) {
            throw new IllegalArgumentException(knob.name() + " must be in " + knob.min() + ".." + knob.max() + ", got " + value);
        }
        CONFIGURED.put(knob.name(), value);
    }

    private SystemProperties() {
    }

    /**
     * @param name         the system property
     * @param defaultValue its value when unset or blank
     * @param min          the least allowed value
     * @param max          the greatest allowed value
     * @return the property's value, an integer in {@code min..max}
     * @throws IllegalArgumentException naming the property and the range when the value is not an
     *                                  ASCII integer in it
     */
    public static long longIn(String name, long defaultValue, long min, long max) {
        String text = System.getProperty(name);
        if (text == null || text.isBlank()) {
            return defaultValue;
        }
        String t = text.strip();
        long n;
        try {
            if (!PropertyCheck.ASCII_INTEGER.matcher(t).matches()) {
                throw new NumberFormatException(t);
            }
            n = Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be an integer in " + min + ".." + max + ", got '" + text + "'", e);
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(name + " must be in " + min + ".." + max + ", got " + n);
        }
        return n;
    }
}
