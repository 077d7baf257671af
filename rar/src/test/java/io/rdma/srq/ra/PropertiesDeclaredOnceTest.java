package io.rdma.srq.ra;

import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.outbound.SrqManagedConnectionFactory;
import io.rdma.srq.ra.support.SrqProperty;
import io.rdma.srq.ra.support.SrqProperty.Side;
import jakarta.resource.spi.ConfigProperty;
import jakarta.resource.spi.InvalidPropertyException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The activation spec and the connection definition have exactly the properties {@link SrqProperty}
 * declares for their side, a fresh bean holds the declared defaults, a property of words refuses
 * other text naming exactly the declared words, and the connection
 * definition's {@code @ConfigProperty} default and description (the container's copy, which an
 * annotation can only hold as literals) agree with the table.
 */
class PropertiesDeclaredOnceTest {

    @ParameterizedTest
    @EnumSource(Side.class)
    void aFreshBeanHasTheDeclaredPropertiesWithTheirDefaults(Side side) throws Exception {
        Object bean = side == Side.ACTIVATION ? new SrqActivationSpec() : new SrqManagedConnectionFactory();
        Map<String, String> declared = SrqProperty.of(side).stream()
                .collect(Collectors.toMap(SrqProperty::property, p -> p.defaultFor(side), (a, b) -> a, TreeMap::new));
        Map<String, String> held = new TreeMap<>();
        for (PropertyDescriptor d : Introspector.getBeanInfo(bean.getClass()).getPropertyDescriptors()) {
            if (d.getPropertyType() == String.class && d.getReadMethod() != null && d.getWriteMethod() != null) {
                held.put(d.getName(), (String) d.getReadMethod().invoke(bean));
            }
        }
        assertEquals(declared, held, bean.getClass().getSimpleName() + "'s text properties and their defaults");
    }

    @ParameterizedTest
    @EnumSource(Side.class)
    void aWordPropertyRefusesTextWithTheDeclaredWords(Side side) throws Exception {
        for (SrqProperty p : SrqProperty.of(side)) {
            if (p.kind() != SrqProperty.Kind.WORDS && p.kind() != SrqProperty.Kind.BOOLEAN) {
                continue;
            }
            Object bean = side == Side.ACTIVATION ? new SrqActivationSpec() : new SrqManagedConnectionFactory();
            new PropertyDescriptor(p.property(), bean.getClass()).getWriteMethod().invoke(bean, "x!");
            Exception e = assertThrows(InvalidPropertyException.class, () -> {
                if (bean instanceof SrqActivationSpec spec) {
                    spec.validate();
                } else {
                    ((SrqManagedConnectionFactory) bean).config();
                }
            });
            assertEquals(p.property() + " must be one of " + p.range() + ", got 'x!'", e.getMessage());
        }
    }

    @Test
    void theConfigPropertyDefaultsAndDescriptionsAreTheDeclaredOnes() {
        Map<String, String> annotated = Arrays.stream(SrqManagedConnectionFactory.class.getDeclaredFields())
                .filter(f -> f.isAnnotationPresent(ConfigProperty.class))
                .collect(Collectors.toMap(Field::getName, f -> f.getAnnotation(ConfigProperty.class).defaultValue()
                        + " | " + String.join(" ", f.getAnnotation(ConfigProperty.class).description()), (a, b) -> a,
                        TreeMap::new));
        Map<String, String> declared = SrqProperty.of(Side.CONNECTION_DEFINITION).stream()
                .collect(Collectors.toMap(SrqProperty::property, p -> p.defaultFor(Side.CONNECTION_DEFINITION)
                        + " | " + p.description(), (a, b) -> a, TreeMap::new));
        assertEquals(declared, annotated, "@ConfigProperty(defaultValue | description) of SrqManagedConnectionFactory");
    }
}
