package io.rdma.srq.subsystem;

import org.jboss.as.controller.AbstractRuntimeOnlyHandler;
import org.jboss.as.controller.OperationContext;
import org.jboss.as.controller.OperationFailedException;
import org.jboss.as.controller.PathAddress;
import org.jboss.as.controller.registry.Resource;
import org.jboss.dmr.ModelNode;

import java.util.function.Function;

/**
 * A read or an operation on a live child ({@link LiveResource.LiveEntry}): finds what the addressed
 * resource shows and acts on it; fails naming the resource when it is gone (an activation stopped, a
 * definition unbound) between listing and reading.
 *
 * @param <C> what the resource shows
 */
final class RuntimeRead<C> extends AbstractRuntimeOnlyHandler {

    /** What a handler does with what the resource shows. */
    @FunctionalInterface
    interface Step<C> {
        /**
         * @param context   the operation's context (its result is the reply)
         * @param operation the operation
         * @param control   what the resource shows
         * @throws OperationFailedException when it cannot
         */
        void run(OperationContext context, ModelNode operation, C control) throws OperationFailedException;
    }

    private final Class<C> type;
    private final String what;
    private final Step<C> step;

    private RuntimeRead(Class<C> type, String what, Step<C> step) {
        this.type = type;
        this.what = what;
        this.step = step;
    }

    /**
     * @param type  what the resource shows
     * @param what  its name in a failure ("activation", "connection definition")
     * @param value the attribute's value
     * @param <C>   what the resource shows
     * @return a read-attribute handler
     */
    static <C> RuntimeRead<C> attribute(Class<C> type, String what, Function<C, ModelNode> value) {
        return new RuntimeRead<>(type, what, (context, operation, c) -> context.getResult().set(value.apply(c)));
    }

    /**
     * @param type what the resource shows
     * @param what its name in a failure
     * @param step the operation
     * @param <C>  what the resource shows
     * @return an operation handler
     */
    static <C> RuntimeRead<C> operation(Class<C> type, String what, Step<C> step) {
        return new RuntimeRead<>(type, what, step);
    }

    @Override
    protected void executeRuntimeStep(OperationContext context, ModelNode operation) throws OperationFailedException {
        Resource r = context.readResource(PathAddress.EMPTY_ADDRESS, false);
        if (r instanceof LiveResource.LiveEntry<?> e && type.isInstance(e.control())) {
            try {
                step.run(context, operation, type.cast(e.control()));
            } catch (IllegalStateException | IllegalArgumentException refused) {
                throw new OperationFailedException(refused.getMessage()); // e.g. resume on a drained activation
            }
            return;
        }
        throw new OperationFailedException(what + " " + context.getCurrentAddressValue() + " is not there any more");
    }
}
