package io.rdma.srq.ra.support;

/**
 * The adapter's JVM-wide tuning knobs, read from system properties ({@code -Dsrq.spinners=2}):
 * strictly, so that a mistyped value stops the adapter with a message naming the property and its
 * range instead of being ignored.
 */
public final class SystemProperties {
    private static final java.util.regex.Pattern ASCII_INTEGER = java.util.regex.Pattern.compile("[+-]?[0-9]+");

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
            if (!ASCII_INTEGER.matcher(t).matches()) {
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
