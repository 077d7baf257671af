package io.rdma.srq.subsystem;

import org.jboss.as.controller.Extension;
import org.jboss.as.controller.ExtensionContext;
import org.jboss.as.controller.ModelVersion;
import org.jboss.as.controller.SubsystemRegistration;
import org.jboss.as.controller.operations.common.GenericSubsystemDescribeHandler;
import org.jboss.as.controller.parsing.ExtensionParsingContext;
import org.jboss.as.controller.registry.ManagementResourceRegistration;

/**
 * The WildFly extension of the RDMA SRQ resource adapter (module {@code io.rdma.srq.subsystem}, added by
 * the Galleon layer {@code rdma-srq}): registers {@code /subsystem=rdma-srq} ({@link SubsystemDefinition}),
 * its deployment view {@code /deployment=APP/subsystem=rdma-srq} ({@link DeploymentDefinition}) and the
 * XML of {@code <subsystem xmlns="urn:io.rdma.srq:rdma-srq:1.0"/>} ({@link SubsystemXml}).
 */
public final class RdmaSrqExtension implements Extension {
    /** The subsystem's name: {@code /subsystem=rdma-srq}. */
    public static final String SUBSYSTEM_NAME = "rdma-srq";
    /** The management model's version; a change to the persistent model raises it. */
    static final ModelVersion VERSION_1_0_0 = ModelVersion.create(1, 0, 0);

    @Override
    public void initialize(ExtensionContext context) {
        SubsystemRegistration subsystem = context.registerSubsystem(SUBSYSTEM_NAME, VERSION_1_0_0);
        subsystem.registerXMLElementWriter(SubsystemXml.INSTANCE);
        ManagementResourceRegistration root = subsystem.registerSubsystemModel(new SubsystemDefinition());
        root.registerOperationHandler(GenericSubsystemDescribeHandler.DEFINITION, GenericSubsystemDescribeHandler.INSTANCE);
        subsystem.registerDeploymentModel(new DeploymentDefinition());
    }

    @Override
    public void initializeParsers(ExtensionParsingContext context) {
        context.setSubsystemXmlMapping(SUBSYSTEM_NAME, SubsystemXml.NAMESPACE, SubsystemXml.INSTANCE);
    }
}
