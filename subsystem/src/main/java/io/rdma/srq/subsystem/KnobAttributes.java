package io.rdma.srq.subsystem;

import io.rdma.srq.ra.support.SystemProperties;
import io.rdma.srq.ra.support.SystemProperties.Knob;
import org.jboss.as.controller.SimpleAttributeDefinition;
import org.jboss.as.controller.SimpleAttributeDefinitionBuilder;
import org.jboss.as.controller.operations.validation.LongRangeValidator;
import org.jboss.as.controller.registry.AttributeAccess;
import org.jboss.dmr.ModelType;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The subsystem's attributes, one per {@link SystemProperties#ALL knob} of the adapter — the same
 * declaration, so name, range and description are never written twice ({@link Knob#attributeName()}:
 * {@code srq.spinners} is the attribute {@code spinners}, {@code srq.call.spinNanos} is {@code call-spin-nanos}). Undefined (the
 * default), the system property or the knob's own default applies. The range is checked by the
 * management layer (a value outside it is refused naming the attribute and its range); expressions
 * ({@code ${srq.spinners:2}}) are allowed. The adapter reads a knob once, at its first use, so a
 * change requires a restart of the server.
 */
final class KnobAttributes {
    /** Each attribute with the knob it sets, in the knobs' order. */
    static final Map<SimpleAttributeDefinition, Knob> ALL = attributes();

    private KnobAttributes() {
    }

    private static Map<SimpleAttributeDefinition, Knob> attributes() {
        Map<SimpleAttributeDefinition, Knob> all = new LinkedHashMap<>();
        for (Knob k : SystemProperties.ALL) {
            all.put(new SimpleAttributeDefinitionBuilder(k.attributeName(), ModelType.LONG, true)
                    .setAllowExpression(true)
                    .setValidator(new LongRangeValidator(k.min(), k.max(), true, true))
                    .setFlags(AttributeAccess.Flag.RESTART_JVM)
                    .build(), k);
        }
        return Collections.unmodifiableMap(all);
    }
}
