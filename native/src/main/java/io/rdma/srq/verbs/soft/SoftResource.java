package io.rdma.srq.verbs.soft;

import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.spi.ResourceBase;

/**
 * A soft-device object: the shared lifecycle of {@link ResourceBase} (children first, EBUSY while
 * used, IllegalStateException after close) plus the live-object count behind
 * {@link SoftProvider#liveObjects()}. Subclasses release their in-JVM state in {@link #release()}.
 */
abstract class SoftResource extends ResourceBase {

    /**
     * Registers with the parent and the used objects, and counts the object as live. Subclass
     * constructors must not throw after this (validate before calling {@code super}).
     *
     * @param parent    the parent, or {@code null} for a context
     * @param kind      description for messages
     * @param destroyOp the C function whose semantics destroy follows
     * @param uses      objects this one references
     */
    SoftResource(ResourceBase parent, String kind, String destroyOp, ResourceBase... uses) {
        super(parent, kind, destroyOp, uses);
        SoftFabric.LIVE.incrementAndGet();
    }

    @Override
    protected final void destroy() throws VerbsException {
        try {
            release();
        } finally {
            SoftFabric.LIVE.decrementAndGet();
        }
    }

    /**
     * Frees what the object holds. Runs once, after children and users are closed.
     *
     * @throws VerbsException never on the soft device; declared for symmetry
     */
    protected abstract void release() throws VerbsException;

    /**
     * Lets objects of this package run a child factory under {@link #whileOpen}.
     *
     * @param action the factory
     * @param <T>    its result
     * @return the result
     * @throws VerbsException what the factory throws
     */
    final <T> T open(java.util.concurrent.Callable<T> action) throws VerbsException {
        return whileOpen(action);
    }

    /** @throws IllegalStateException if closed */
    final void checkOpen() {
        ensureOpen();
    }
}
