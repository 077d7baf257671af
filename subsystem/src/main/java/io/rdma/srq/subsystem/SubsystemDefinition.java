package io.rdma.srq.subsystem;

import org.jboss.as.controller.AttributeDefinition;
import org.jboss.as.controller.PathElement;
import org.jboss.as.controller.ReloadRequiredRemoveStepHandler;
import org.jboss.as.controller.SimpleResourceDefinition;
import org.jboss.as.controller.descriptions.ModelDescriptionConstants;
import org.jboss.as.controller.registry.ManagementResourceRegistration;
import org.jboss.as.controller.registry.OperationEntry;

/**
 * {@code /subsystem=rdma-srq}: the adapter's server-wide settings ({@link KnobAttributes}) and, as runtime
 * children, every activation the adapter of module {@code io.rdma.srq} runs now ({@link ActivationDefinition}) and
 * every connection definition bound for it ({@link DefinitionResourceDefinition}).
 */
final class SubsystemDefinition extends SimpleResourceDefinition {
    static final PathElement PATH = PathElement.pathElement(ModelDescriptionConstants.SUBSYSTEM, RdmaSrqExtension.SUBSYSTEM_NAME);

    SubsystemDefinition() {
        super(new Parameters(PATH, Descriptions.of(RdmaSrqExtension.SUBSYSTEM_NAME))
                .setAddHandler(new SubsystemAdd())
                .setRemoveHandler(ReloadRequiredRemoveStepHandler.INSTANCE)
                .setAddRestartLevel(OperationEntry.Flag.RESTART_ALL_SERVICES)
                .setRemoveRestartLevel(OperationEntry.Flag.RESTART_ALL_SERVICES));
    }

    @Override
    public void registerAttributes(ManagementResourceRegistration registration) {
        KnobWrite write = new KnobWrite();
        for (AttributeDefinition a : KnobAttributes.ALL.keySet()) {
            registration.registerReadWriteAttribute(a, null, write);
        }
    }

    @Override
    public void registerChildren(ManagementResourceRegistration registration) {
        registration.registerSubModel(new ActivationDefinition());
        registration.registerSubModel(new DefinitionResourceDefinition());
    }
}
