package io.rdma.srq.ra.support;

import jakarta.resource.spi.InvalidPropertyException;

import java.beans.IntrospectionException;
import java.beans.PropertyDescriptor;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Parses and checks configuration properties (JavaBean properties of the managed connection
 * factory and the activation spec) with messages that name the property and its allowed range,
 * as an administrator needs them: {@code srqMaxWr must be an integer in 1..1048576, got 'abc'}.
 */
public final class PropertyCheck {
    /** An integer as ASCII digits with an optional sign (Long.parseLong also takes other scripts' digits). */
    static final java.util.regex.Pattern ASCII_INTEGER = java.util.regex.Pattern.compile("[+-]?[0-9]+");
    private final Class<?> bean;

    /** @param bean the JavaBean class the properties belong to (for the invalid-property descriptor) */
    public PropertyCheck(Class<?> bean) {
        this.bean = bean;
    }

    /**
     * @param property the property name
     * @param value    its configured text
     * @param min      smallest allowed value
     * @param max      largest allowed value
     * @param why      what bounds the range, e.g. "the device's max_srq_wr", or {@code null}
     * @return the value
     * @throws InvalidPropertyException if the text is not an integer or lies outside min..max
     */
    public int integer(String property, String value, long min, long max, String why) throws InvalidPropertyException {
        String range = min + ".." + max + (why == null ? "" : " (" + why + ")");
        long v;
        try {
            String t = value == null ? "" : value.trim();
            if (!ASCII_INTEGER.matcher(t).matches()) { // Long.parseLong also takes other scripts' digits
                throw new NumberFormatException(t);
            }
            v = Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw invalid(property, property + " must be an integer in " + range + ", got '" + value + "'");
        }
        return inRange(property, v, min, max, why);
    }

    /**
     * @param property the property name
     * @param v        its value
     * @param min      smallest allowed
     * @param max      largest allowed
     * @param why      what bounds the range, or {@code null}
     * @return the value
     * @throws InvalidPropertyException outside min..max
     */
    public int inRange(String property, long v, long min, long max, String why) throws InvalidPropertyException {
        if (v < min || v > max) {
            throw invalid(property, property + " must be in " + min + ".." + max + (why == null ? "" : " (" + why + ")")
                    + ", got " + v);
        }
        return (int) v;
    }

    /**
     * One of the constants of an enum, written as its name in lower case ({@code busy} for
     * {@code BUSY}), exactly.
     *
     * @param property the property name
     * @param value    its configured text
     * @param type     the enum
     * @param <E>      its type
     * @return the constant
     * @throws InvalidPropertyException naming the allowed values if it is none of them
     */
    public <E extends Enum<E>> E oneOf(String property, String value, Class<E> type) throws InvalidPropertyException {
        return oneOf(property, value, List.of(type.getEnumConstants()), PropertyCheck::text);
    }

    /**
     * One of {@code allowed}, each written as {@code text} gives it, exactly.
     *
     * @param property the property name
     * @param value    its configured text
     * @param allowed  the allowed values
     * @param text     how each is written
     * @param <T>      their type
     * @return the value whose text is {@code value}, trimmed
     * @throws InvalidPropertyException naming the allowed values if it is none of them
     */
    public <T> T oneOf(String property, String value, List<T> allowed, Function<T, String> text)
            throws InvalidPropertyException {
        return parse(property, value, allowed.stream().map(text).toList(), v -> allowed.stream()
                .filter(a -> text.apply(a).equals(v)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(v)));
    }

    /**
     * A value parsed by {@code parser}, which throws IllegalArgumentException for text it does not know.
     *
     * @param property the property name
     * @param value    its configured text
     * @param allowed  how the allowed values are written, for the message
     * @param parser   parses the trimmed text
     * @param <T>      the value's type
     * @return the parsed value
     * @throws InvalidPropertyException {@code property must be one of a, b, got 'x'} if the parser refuses it
     */
    public <T> T parse(String property, String value, List<String> allowed, Function<String, T> parser)
            throws InvalidPropertyException {
        try {
            return parser.apply(value == null ? "" : value.trim());
        } catch (IllegalArgumentException e) {
            throw invalid(property, property + " must be one of " + String.join(", ", allowed) + ", got '" + value + "'");
        }
    }

    /**
     * @param constant an enum constant
     * @return how a property writes it: its name in lower case
     */
    public static String text(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param property the property name
     * @param message  the full message
     * @return an exception naming the property (with its descriptor where the bean has one)
     */
    public InvalidPropertyException invalid(String property, String message) {
        InvalidPropertyException e = new InvalidPropertyException(message);
        try {
            e.setInvalidPropertyDescriptors(new PropertyDescriptor[] {new PropertyDescriptor(property, bean)});
        } catch (IntrospectionException notABeanProperty) {
            // the message still names it
        }
        return e;
    }
}
