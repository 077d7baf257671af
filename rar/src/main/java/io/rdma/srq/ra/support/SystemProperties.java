package io.rdma.srq.ra.support;

/**
 * The adapter's JVM-wide tuning knobs, read from system properties ({@code -Dsrq.spinners=2}):
 * strictly. {@link #check()} runs at the resource adapter's start, so a mistyped value stops the
 * deployment with a message naming the property and its range; where the adapter's classes are
 * used without it (container-less), a bad value is logged at ERROR (SRQRA0005) and the default
 * used — never an Error thrown into a caller or the adapter's threads.
 */
public final class SystemProperties {
    /** {@code srq.spinners}: threads of the adapter that may busy-poll at once ({@link SpinBudget}). */
    public static final Knob SPINNERS = new Knob("srq.spinners",
            Math.min(1024, Math.max(0, Runtime.getRuntime().availableProcessors() - 1)), 0, 1024);
    /** {@code srq.call.spinNanos}: the longest spin of a synchronous caller for its reply, ns. */
    public static final Knob CALL_SPIN_NANOS = new Knob("srq.call.spinNanos", 200_000L, 0, 1_000_000_000L);

    /**
     * One knob.
     *
     * @param name         the system property
     * @param defaultValue its value when unset or blank
     * @param min          the least allowed value
     * @param max          the greatest allowed value
     */
    public record Knob(String name, long defaultValue, long min, long max) {
        /**
         * @return the value
         * @throws IllegalArgumentException naming the property and its range
         */
        public long read() {
            return longIn(name, defaultValue, min, max);
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
        SPINNERS.read();
        CALL_SPIN_NANOS.read();
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
