package io.rdma.srq.subsystem;

import io.rdma.srq.ra.support.SystemProperties;
import org.jboss.as.controller.AbstractAddStepHandler;
import org.jboss.as.controller.OperationContext;
import org.jboss.as.controller.OperationFailedException;
import org.jboss.as.controller.PathAddress;
import org.jboss.as.controller.SimpleAttributeDefinition;
import org.jboss.as.controller.registry.Resource;
import org.jboss.as.server.AbstractDeploymentChainStep;
import org.jboss.as.server.DeploymentProcessorTarget;
import org.jboss.as.server.deployment.Phase;
import org.jboss.dmr.ModelNode;

import java.util.List;
import java.util.Map;

/**
 * Adds {@code /subsystem=rdma-srq}: a resource whose {@code activation} and {@code connection-definition}
 * children are read live from the adapter ({@link LiveResource}); at boot it hands the knobs' values to the adapter
 * ({@link SystemProperties#configure}) before anything reads them, installs
 * {@link DeploymentActivationsProcessor} and, where the server has MicroProfile Health, the adapter's
 * readiness check ({@link ReadinessRegistration}). Added to a running server it takes effect after a reload.
 */
final class SubsystemAdd extends AbstractAddStepHandler {
    /** Where in Phase.INSTALL the deployment view is registered: after the EE components are described. */
    private static final int PRIORITY = 0x4100;

    SubsystemAdd() {
        super(KnobAttributes.ALL.keySet());
    }

    @Override
    protected Resource createResource(OperationContext context) {
        Resource resource = new LiveResource(Resource.Factory.create(),
                List.of(LiveResource.activations(LiveResource.Scope.SERVER), LiveResource.definitions()));
        context.addResource(PathAddress.EMPTY_ADDRESS, resource);
        return resource;
    }

    @Override
    protected void performRuntime(OperationContext context, ModelNode operation, Resource resource) throws OperationFailedException {
        if (!context.isBooting()) {
            context.reloadRequired();
            return;
        }
        ModelNode model = resource.getModel();
        for (Map.Entry<SimpleAttributeDefinition, SystemProperties.Knob> a : KnobAttributes.ALL.entrySet()) {
            ModelNode value = a.getKey().resolveModelAttribute(context, model);
            SystemProperties.configure(a.getValue(), value.isDefined() ? value.asLong() : null);
        }
        if (context.getCapabilityServiceSupport().hasCapability(ReadinessRegistration.REPORTER)) {
            ReadinessRegistration.install(context); // loaded only here: it links against the MicroProfile Health API
        }
        context.addStep(new AbstractDeploymentChainStep() {
            @Override
            protected void execute(DeploymentProcessorTarget target) {
                target.addDeploymentProcessor(RdmaSrqExtension.SUBSYSTEM_NAME, Phase.INSTALL, PRIORITY,
                        new DeploymentActivationsProcessor());
            }
        }, OperationContext.Stage.RUNTIME);
    }

    @Override
    protected void rollbackRuntime(OperationContext context, ModelNode operation, Resource resource) {
        if (!context.isBooting()) {
            context.revertReloadRequired();
        }
    }
}
