package io.rdma.srq.subsystem;

import org.jboss.as.controller.registry.Resource;
import org.jboss.as.server.deployment.Attachments;
import org.jboss.as.server.deployment.DeploymentPhaseContext;
import org.jboss.as.server.deployment.DeploymentResourceSupport;
import org.jboss.as.server.deployment.DeploymentUnit;
import org.jboss.as.server.deployment.DeploymentUnitProcessor;
import org.jboss.as.server.deployment.module.ModuleDependency;
import org.jboss.as.server.deployment.module.ModuleSpecification;
import org.jboss.modules.Module;

import java.util.List;

/**
 * Registers {@code subsystem=rdma-srq} under a deployment (and a subdeployment) whose module depends on
 * the adapter's module {@code io.rdma.srq} — what an application that implements the adapter's listener
 * interfaces needs — showing the activations of the MDB classes that deployment defines. Other
 * deployments get nothing.
 */
final class DeploymentActivationsProcessor implements DeploymentUnitProcessor {
    /** The adapter's module: the Galleon layer rdma-srq installs it. */
    static final String ADAPTER_MODULE = "io.rdma.srq";

    @Override
    public void deploy(DeploymentPhaseContext phaseContext) {
        DeploymentUnit unit = phaseContext.getDeploymentUnit();
        Module module = unit.getAttachment(Attachments.MODULE);
        ModuleSpecification spec = unit.getAttachment(Attachments.MODULE_SPECIFICATION);
        DeploymentResourceSupport support = unit.getAttachment(Attachments.DEPLOYMENT_RESOURCE_SUPPORT);
        if (module == null || spec == null || support == null || !usesAdapter(spec)) {
            return;
        }
        support.registerDeploymentSubsystemResource(RdmaSrqExtension.SUBSYSTEM_NAME,
                new LiveResource(Resource.Factory.create(true),
                        List.of(LiveResource.activations(LiveResource.Scope.deployment(module.getClassLoader())))));
    }

    private static boolean usesAdapter(ModuleSpecification spec) {
        for (ModuleDependency d : spec.getAllDependencies()) {
            if (ADAPTER_MODULE.equals(d.getDependencyModule())) {
                return true;
            }
        }
        return false;
    }
}
