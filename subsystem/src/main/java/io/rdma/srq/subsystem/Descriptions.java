package io.rdma.srq.subsystem;

import io.rdma.srq.ra.management.Figure;
import io.rdma.srq.ra.management.StatisticsTable;
import io.rdma.srq.ra.support.SystemProperties.Knob;
import org.jboss.as.controller.SimpleAttributeDefinition;
import org.jboss.as.controller.descriptions.ResourceDescriptionResolver;
import org.jboss.as.controller.descriptions.StandardResourceDescriptionResolver;

import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.MissingResourceException;
import java.util.ResourceBundle;

/**
 * The descriptions read-resource-description shows: the resources' and operations' own from
 * {@code LocalDescriptions.properties}, and those of the attributes from the declarations they come from
 * — a knob's from {@link Knob#description()} (with its system property, range and default), a figure's
 * from {@link StatisticsTable} — so nothing is described twice.
 */
final class Descriptions {
    private static final String BUNDLE = Descriptions.class.getPackage().getName() + ".LocalDescriptions";

    private Descriptions() {
    }

    /**
     * @param keyPrefix the resource's path in the bundle, e.g. {@code rdma-srq}, {@code rdma-srq.activation}
     * @return its resolver
     */
    static ResourceDescriptionResolver of(String keyPrefix) {
        return new StandardResourceDescriptionResolver(keyPrefix, BUNDLE, Descriptions.class.getClassLoader(), true, false) {
            @Override
            public ResourceBundle getResourceBundle(Locale locale) {
                return new Declared(super.getResourceBundle(locale));
            }
        };
    }

    /** The generated entries in front of the properties file. */
    private static final class Declared extends ResourceBundle {
        private static final Map<String, String> ENTRIES = entries();

        Declared(ResourceBundle properties) {
            setParent(properties);
        }

        private static Map<String, String> entries() {
            Map<String, String> e = new LinkedHashMap<>();
            String subsystem = RdmaSrqExtension.SUBSYSTEM_NAME;
            for (Map.Entry<SimpleAttributeDefinition, Knob> a : KnobAttributes.ALL.entrySet()) {
                Knob k = a.getValue();
                e.put(subsystem + "." + a.getKey().getName(), k.description() + ". " + k.min() + ".." + k.max()
                        + "; undefined: the system property " + k.name() + ", else " + k.defaultText()
                        + ". Read once by the adapter: a change needs a restart of the server.");
            }
            for (Figure<?> f : StatisticsTable.ACTIVATION) {
                e.put(subsystem + "." + ActivationDefinition.PATH.getKey() + "." + f.name(), f.description());
            }
            for (Figure<?> f : StatisticsTable.DEFINITION) {
                e.put(subsystem + "." + DefinitionResourceDefinition.PATH.getKey() + "." + f.name(), f.description());
            }
            return Collections.unmodifiableMap(e);
        }

        @Override
        protected Object handleGetObject(String key) {
            return ENTRIES.get(key);
        }

        @Override
        public Enumeration<String> getKeys() {
            return Collections.enumeration(ENTRIES.keySet()); // the parent's keys are looked up through it
        }

        @Override
        public boolean containsKey(String key) {
            try {
                return ENTRIES.containsKey(key) || (parent != null && parent.containsKey(key));
            } catch (MissingResourceException e) {
                return false;
            }
        }
    }
}
