package io.rdma.srq.ra;

import jakarta.resource.spi.InvalidPropertyException;

import java.beans.IntrospectionException;
import java.beans.PropertyDescriptor;
import java.util.Collection;

/**
 * Parses and checks configuration properties (JavaBean properties of the managed connection
 * factory and the activation spec) with messages that name the property and its allowed range,
 * as an administrator needs them: {@code srqMaxWr must be an integer in 1..1048576, got 'abc'}.
 */
public final class PropertyCheck {
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
            v = Long.parseLong(value == null ? "" : value.trim());
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
     * @param property the property name
     * @param value    its configured text
     * @param allowed  the allowed values
     * @return the value, trimmed
     * @throws InvalidPropertyException if it is not one of them
     */
    public String oneOf(String property, String value, Collection<String> allowed) throws InvalidPropertyException {
        String v = value == null ? "" : value.trim();
        if (!allowed.contains(v)) {
            throw invalid(property, property + " must be one of " + String.join(", ", allowed) + ", got '" + value + "'");
        }
        return v;
    }

    /**
     * Checks the SRQ sizes of a configuration against the opened device (ibv_query_device(3)).
     *
     * @param device the device attributes
     * @param maxWr  the srqMaxWr value
     * @param maxSge the srqMaxSge value
     * @throws InvalidPropertyException when the device has no SRQ, or a size exceeds its maximum
     */
    public void srqSizes(io.rdma.srq.api.DeviceAttributes device, int maxWr, int maxSge) throws InvalidPropertyException {
        if (device.maxSrq() == 0 || device.maxSrqWr() == 0) {
            throw invalid("srqMaxWr", "the device has no SRQ support (max_srq " + device.maxSrq()
                    + ", max_srq_wr " + device.maxSrqWr() + "): choose another device");
        }
        inRange("srqMaxWr", maxWr, 1, device.maxSrqWr(), "the device's max_srq_wr");
        inRange("srqMaxSge", maxSge, 1, device.maxSrqSge(), "the device's max_srq_sge");
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
