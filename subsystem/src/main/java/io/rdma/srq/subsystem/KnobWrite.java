package io.rdma.srq.subsystem;

import org.jboss.as.controller.AbstractWriteAttributeHandler;
import org.jboss.as.controller.OperationContext;
import org.jboss.as.controller.OperationFailedException;
import org.jboss.dmr.ModelNode;

/**
 * Writes a knob attribute: validated by the management layer (type, range), persisted, and marks the
 * server restart-required — the adapter reads a knob once, at its first use, and a reload keeps the
 * modules (and so the value read) loaded.
 */
final class KnobWrite extends AbstractWriteAttributeHandler<Void> {

    @Override
    protected boolean applyUpdateToRuntime(OperationContext context, ModelNode operation, String attributeName,
                                           ModelNode resolvedValue, ModelNode currentValue, HandbackHolder<Void> handback)
            throws OperationFailedException {
        context.restartRequired();
        return false;
    }

    @Override
    protected void revertUpdateToRuntime(OperationContext context, ModelNode operation, String attributeName,
                                         ModelNode valueToRestore, ModelNode valueToRevert, Void handback) {
        context.revertRestartRequired();
    }
}
