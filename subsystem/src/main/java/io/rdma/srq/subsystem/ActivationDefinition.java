package io.rdma.srq.subsystem;

import io.rdma.srq.ra.management.ActivationControl;
import io.rdma.srq.ra.management.ActivationView;
import io.rdma.srq.ra.management.Figure;
import io.rdma.srq.ra.management.StatisticsTable;
import org.jboss.as.controller.AttributeDefinition;
import org.jboss.as.controller.PathElement;
import org.jboss.as.controller.SimpleAttributeDefinitionBuilder;
import org.jboss.as.controller.SimpleOperationDefinitionBuilder;
import org.jboss.as.controller.SimpleResourceDefinition;
import org.jboss.as.controller.client.helpers.MeasurementUnit;
import org.jboss.as.controller.descriptions.ResourceDescriptionResolver;
import org.jboss.as.controller.operations.validation.LongRangeValidator;
import org.jboss.as.controller.registry.AttributeAccess;
import org.jboss.as.controller.registry.ManagementResourceRegistration;
import org.jboss.dmr.ModelNode;
import org.jboss.dmr.ModelType;
import org.jboss.modules.ModuleClassLoader;

import java.time.Duration;
import java.util.function.Function;

/**
 * {@code activation=<srqName>}: one running activation, under {@code /subsystem=rdma-srq} and under its
 * deployment's {@code subsystem=rdma-srq}. Its attributes are the figures of
 * {@link StatisticsTable#ACTIVATION} — counters and gauges as metrics ({@code /metrics} types counters as
 * counters), text as read-only runtime attributes — plus which MDB it serves ({@code endpoint-class}) and in which deployment. Operations: {@code pause},
 * {@code resume}, {@code drain(timeout)} and {@code reset-statistics} ({@link ActivationControl}).
 */
final class ActivationDefinition extends SimpleResourceDefinition {
    static final PathElement PATH = PathElement.pathElement("activation");
    private static final ResourceDescriptionResolver RESOLVER =
            Descriptions.of(RdmaSrqExtension.SUBSYSTEM_NAME + "." + PATH.getKey());

    static final AttributeDefinition ENDPOINT_CLASS = new SimpleAttributeDefinitionBuilder("endpoint-class", ModelType.STRING)
            .setStorageRuntime().build();
    static final AttributeDefinition DEPLOYMENT = new SimpleAttributeDefinitionBuilder("deployment", ModelType.STRING, true)
            .setStorageRuntime().build();

    /** WildFly names a deployment's module {@code deployment.<name>}. */
    private static final String DEPLOYMENT_MODULE_PREFIX = "deployment.";

    /** drain's parameter: how long what was accepted may take to be delivered, ms. */
    static final AttributeDefinition TIMEOUT = new SimpleAttributeDefinitionBuilder("timeout", ModelType.LONG, true)
            .setDefaultValue(new ModelNode(10_000L))
            .setValidator(new LongRangeValidator(1, 3_600_000L, false, false))
            .setMeasurementUnit(MeasurementUnit.MILLISECONDS)
            .build();
    static final AttributeDefinition DELIVERED = new SimpleAttributeDefinitionBuilder("delivered", ModelType.LONG).build();
    static final AttributeDefinition UNDELIVERED = new SimpleAttributeDefinitionBuilder("undelivered", ModelType.LONG).build();

    ActivationDefinition() {
        super(new Parameters(PATH, RESOLVER).setRuntime());
    }

    @Override
    public void registerAttributes(ManagementResourceRegistration registration) {
        for (Figure<ActivationView> f : StatisticsTable.ACTIVATION) {
            if (f.numeric()) {
                SimpleAttributeDefinitionBuilder b = new SimpleAttributeDefinitionBuilder(f.name(), ModelType.LONG)
                        .setStorageRuntime();
                if (f.kind() == Figure.Kind.COUNTER) {
                    b.setFlags(AttributeAccess.Flag.COUNTER_METRIC);
                }
                registration.registerMetric(b.build(), read(c -> new ModelNode((Long) ActivationFigures.of(c).getValue(f.name()))));
            } else {
                registration.registerReadOnlyAttribute(new SimpleAttributeDefinitionBuilder(f.name(), ModelType.STRING, true)
                        .setStorageRuntime().build(), read(c -> new ModelNode((String) ActivationFigures.of(c).getValue(f.name()))));
            }
        }
        registration.registerReadOnlyAttribute(ENDPOINT_CLASS, read(c -> new ModelNode(c.endpointClass().getName())));
        registration.registerReadOnlyAttribute(DEPLOYMENT, read(c -> {
            String d = deploymentOf(c.endpointClass());
            return d == null ? new ModelNode() : new ModelNode(d);
        }));
    }

    @Override
    public void registerOperations(ManagementResourceRegistration registration) {
        super.registerOperations(registration);
        registration.registerOperationHandler(new SimpleOperationDefinitionBuilder("pause", RESOLVER).setRuntimeOnly().build(),
                act((context, operation, c) -> c.pauseDelivery()));
        registration.registerOperationHandler(new SimpleOperationDefinitionBuilder("resume", RESOLVER).setRuntimeOnly().build(),
                act((context, operation, c) -> c.resumeDelivery()));
        registration.registerOperationHandler(new SimpleOperationDefinitionBuilder("reset-statistics", RESOLVER).setRuntimeOnly().build(),
                act((context, operation, c) -> ActivationFigures.of(c).clear()));
        registration.registerOperationHandler(new SimpleOperationDefinitionBuilder("drain", RESOLVER)
                        .setParameters(TIMEOUT)
                        .setReplyType(ModelType.OBJECT)
                        .setReplyParameters(DELIVERED, UNDELIVERED)
                        .setRuntimeOnly()
                        .build(),
                act((context, operation, c) -> {
                    long ms = TIMEOUT.resolveModelAttribute(context, operation).asLong();
                    ActivationControl.Drained d = c.drain(Duration.ofMillis(ms));
                    ModelNode result = context.getResult();
                    result.get(DELIVERED.getName()).set(d.delivered());
                    result.get(UNDELIVERED.getName()).set(d.undelivered());
                }));
    }

    /**
     * @param endpointClass an MDB class
     * @return the deployment that defines it ({@code app.war}, {@code app.ear.ejb.jar}), null outside one
     */
    static String deploymentOf(Class<?> endpointClass) {
        if (endpointClass.getClassLoader() instanceof ModuleClassLoader loader) {
            String module = loader.getModule().getName();
            return module.startsWith(DEPLOYMENT_MODULE_PREFIX) ? module.substring(DEPLOYMENT_MODULE_PREFIX.length()) : null;
        }
        return null;
    }

    private static RuntimeRead<ActivationControl> read(Function<ActivationControl, ModelNode> value) {
        return RuntimeRead.attribute(ActivationControl.class, PATH.getKey(), value);
    }

    private static RuntimeRead<ActivationControl> act(RuntimeRead.Step<ActivationControl> step) {
        return RuntimeRead.operation(ActivationControl.class, PATH.getKey(), step);
    }
}
