package io.rdma.srq.subsystem;

import io.rdma.srq.ra.management.DefinitionControl;
import io.rdma.srq.ra.management.DefinitionView;
import io.rdma.srq.ra.management.Figure;
import io.rdma.srq.ra.management.StatisticsTable;
import org.jboss.as.controller.AttributeDefinition;
import org.jboss.as.controller.OperationFailedException;
import org.jboss.as.controller.PathElement;
import org.jboss.as.controller.SimpleAttributeDefinitionBuilder;
import org.jboss.as.controller.SimpleOperationDefinitionBuilder;
import org.jboss.as.controller.SimpleResourceDefinition;
import org.jboss.as.controller.descriptions.ResourceDescriptionResolver;
import org.jboss.as.controller.registry.AttributeAccess;
import org.jboss.as.controller.registry.ManagementResourceRegistration;
import org.jboss.dmr.ModelNode;
import org.jboss.dmr.ModelType;

import java.util.function.Function;

/**
 * {@code /subsystem=rdma-srq/connection-definition=<pool>}: one connection definition bound for the
 * adapter of module {@code io.rdma.srq} (WildFly's {@code connection-definitions=<pool>} of a
 * resource-adapter entry), its figures ({@link StatisticsTable#DEFINITION}) as attributes — counters and
 * gauges as metrics — and its {@code jndi-name}; operation {@code flush}: every pooled connection
 * destroyed ({@link DefinitionControl#flushPool()}).
 */
final class DefinitionResourceDefinition extends SimpleResourceDefinition {
    static final PathElement PATH = PathElement.pathElement("connection-definition");
    private static final ResourceDescriptionResolver RESOLVER =
            Descriptions.of(RdmaSrqExtension.SUBSYSTEM_NAME + "." + PATH.getKey());

    static final AttributeDefinition JNDI_NAME = new SimpleAttributeDefinitionBuilder("jndi-name", ModelType.STRING, true)
            .setStorageRuntime().build();

    DefinitionResourceDefinition() {
        super(new Parameters(PATH, RESOLVER).setRuntime());
    }

    @Override
    public void registerAttributes(ManagementResourceRegistration registration) {
        for (Figure<DefinitionView> f : StatisticsTable.DEFINITION) {
            if (f.numeric()) {
                SimpleAttributeDefinitionBuilder b = new SimpleAttributeDefinitionBuilder(f.name(), ModelType.LONG).setStorageRuntime();
                if (f.kind() == Figure.Kind.COUNTER) {
                    b.setFlags(AttributeAccess.Flag.COUNTER_METRIC);
                }
                registration.registerMetric(b.build(), read(d -> new ModelNode(f.number().applyAsLong(d.definitionView()))));
            } else {
                registration.registerReadOnlyAttribute(new SimpleAttributeDefinitionBuilder(f.name(), ModelType.STRING, true)
                        .setStorageRuntime().build(), read(d -> new ModelNode(f.text().apply(d.definitionView()))));
            }
        }
        registration.registerReadOnlyAttribute(JNDI_NAME, read(d -> d.jndiName() == null ? new ModelNode() : new ModelNode(d.jndiName())));
    }

    @Override
    public void registerOperations(ManagementResourceRegistration registration) {
        super.registerOperations(registration);
        registration.registerOperationHandler(new SimpleOperationDefinitionBuilder("flush", RESOLVER).setRuntimeOnly().build(),
                RuntimeRead.operation(DefinitionControl.class, "connection definition", (context, operation, d) -> {
                    if (!d.flushPool()) {
                        throw new OperationFailedException("connection definition " + context.getCurrentAddressValue()
                                + " has no pool to flush");
                    }
                }));
    }

    private static RuntimeRead<DefinitionControl> read(Function<DefinitionControl, ModelNode> value) {
        return RuntimeRead.attribute(DefinitionControl.class, "connection definition", value);
    }
}
