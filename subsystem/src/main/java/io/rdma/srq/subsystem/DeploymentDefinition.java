package io.rdma.srq.subsystem;

import org.jboss.as.controller.PathElement;
import org.jboss.as.controller.SimpleResourceDefinition;
import org.jboss.as.controller.descriptions.ModelDescriptionConstants;
import org.jboss.as.controller.registry.ManagementResourceRegistration;

/**
 * {@code /deployment=APP/subsystem=rdma-srq}: the activations of one deployment's MDBs
 * ({@link DeploymentActivationsProcessor} registers it for a deployment that depends on the module
 * {@code io.rdma.srq}); WildFly's metrics subsystem reads their metrics when the deployment is complete.
 */
final class DeploymentDefinition extends SimpleResourceDefinition {

    DeploymentDefinition() {
        super(new Parameters(PathElement.pathElement(ModelDescriptionConstants.SUBSYSTEM, RdmaSrqExtension.SUBSYSTEM_NAME),
                Descriptions.of(RdmaSrqExtension.SUBSYSTEM_NAME + ".deployment")).setRuntime());
    }

    @Override
    public void registerChildren(ManagementResourceRegistration registration) {
        registration.registerSubModel(new ActivationDefinition());
    }
}
