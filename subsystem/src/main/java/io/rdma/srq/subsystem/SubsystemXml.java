package io.rdma.srq.subsystem;

import org.jboss.as.controller.PathElement;
import org.jboss.as.controller.PersistentResourceXMLDescription;
import org.jboss.as.controller.PersistentResourceXMLParser;
import org.jboss.as.controller.descriptions.ModelDescriptionConstants;

/**
 * {@code <subsystem xmlns="urn:io.rdma.srq:rdma-srq:1.0" spinners="2" call-spin-nanos="1000000"/>}: the
 * subsystem's attributes as XML attributes (schema: {@code schema/rdma-srq_1_0.xsd} in this jar).
 */
final class SubsystemXml extends PersistentResourceXMLParser {
    /** The namespace of this version of the subsystem's XML. */
    static final String NAMESPACE = "urn:io.rdma.srq:rdma-srq:1.0";
    static final SubsystemXml INSTANCE = new SubsystemXml();

    private SubsystemXml() {
    }

    @Override
    public PersistentResourceXMLDescription getParserDescription() {
        return PersistentResourceXMLDescription.builder(
                        PathElement.pathElement(ModelDescriptionConstants.SUBSYSTEM, RdmaSrqExtension.SUBSYSTEM_NAME), NAMESPACE)
                .addAttributes(KnobAttributes.ALL.keySet().toArray(new org.jboss.as.controller.AttributeDefinition[0]))
                .build();
    }
}
