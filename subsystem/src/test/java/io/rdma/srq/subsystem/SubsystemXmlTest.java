package io.rdma.srq.subsystem;

import io.rdma.srq.ra.support.SystemProperties;
import org.jboss.as.controller.AttributeDefinition;
import org.jboss.as.controller.descriptions.ResourceDescriptionResolver;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.ResourceBundle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The subsystem's declarations agree with each other: one attribute per knob of the adapter (same name
 * rule, same range), each in the XSD, and every attribute of every resource has a description.
 */
class SubsystemXmlTest {

    @Test
    void oneAttributePerKnobWithItsRange() {
        List<String> names = KnobAttributes.ALL.keySet().stream().map(AttributeDefinition::getName).toList();
        assertEquals(SystemProperties.ALL.stream().map(SystemProperties.Knob::attributeName).toList(), names);
        assertEquals(List.of("spinners", "call-spin-nanos"), names);
    }

    @Test
    void theSchemaDeclaresExactlyTheAttributes() throws Exception {
        List<String> declared = new ArrayList<>();
        try (InputStream in = SubsystemXmlTest.class.getResourceAsStream("/schema/rdma-srq_1_0.xsd")) {
            assertNotNull(in, "schema/rdma-srq_1_0.xsd in the jar");
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            Element root = f.newDocumentBuilder().parse(in).getDocumentElement();
            assertEquals(SubsystemXml.NAMESPACE, root.getAttribute("targetNamespace"));
            NodeList attributes = root.getElementsByTagNameNS("http://www.w3.org/2001/XMLSchema", "attribute");
            for (int i = 0; i < attributes.getLength(); i++) {
                declared.add(((Element) attributes.item(i)).getAttribute("name"));
            }
        }
        assertEquals(KnobAttributes.ALL.keySet().stream().map(AttributeDefinition::getName).toList(), declared);
    }

    @Test
    void everyAttributeHasADescription() {
        check(Descriptions.of(RdmaSrqExtension.SUBSYSTEM_NAME), KnobAttributes.ALL.keySet().stream().map(AttributeDefinition::getName).toList());
        check(Descriptions.of(RdmaSrqExtension.SUBSYSTEM_NAME + "." + ActivationDefinition.PATH.getKey()),
                io.rdma.srq.ra.management.StatisticsTable.ACTIVATION.stream().map(io.rdma.srq.ra.management.Figure::name).toList());
        check(Descriptions.of(RdmaSrqExtension.SUBSYSTEM_NAME + "." + ActivationDefinition.PATH.getKey()), List.of("endpoint-class", "deployment"));
        check(Descriptions.of(RdmaSrqExtension.SUBSYSTEM_NAME + "." + DefinitionResourceDefinition.PATH.getKey()),
                io.rdma.srq.ra.management.StatisticsTable.DEFINITION.stream().map(io.rdma.srq.ra.management.Figure::name).toList());
        ResourceDescriptionResolver activation = Descriptions.of(RdmaSrqExtension.SUBSYSTEM_NAME + "." + ActivationDefinition.PATH.getKey());
        ResourceBundle bundle = activation.getResourceBundle(Locale.ROOT);
        for (String op : List.of("pause", "resume", "drain", "reset-statistics")) {
            assertFalse(activation.getOperationDescription(op, Locale.ROOT, bundle).isBlank(), op);
        }
        assertTrue(activation.getOperationParameterDescription("drain", "timeout", Locale.ROOT, bundle).contains("ms"));
    }

    private static void check(ResourceDescriptionResolver resolver, List<String> attributes) {
        ResourceBundle bundle = resolver.getResourceBundle(Locale.ROOT);
        assertFalse(resolver.getResourceDescription(Locale.ROOT, bundle).isBlank());
        for (String a : attributes) {
            assertFalse(resolver.getResourceAttributeDescription(a, Locale.ROOT, bundle).isBlank(), a);
        }
    }
}
