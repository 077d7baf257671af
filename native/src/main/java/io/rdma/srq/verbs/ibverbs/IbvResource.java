package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.verbs.spi.ResourceBase;

import java.lang.foreign.MemorySegment;

/**
 * A libibverbs object: its native pointer bound to the object's scope (so calls after close fail
 * with IllegalStateException instead of touching freed memory) and its raw address for the destroy
 * call.
 */
abstract class IbvResource extends ResourceBase {
    private final MemorySegment handle;
    private final long address;

    /**
     * @param parent    the parent
     * @param kind      description for messages
     * @param destroyOp the destroying C function
     * @param pointer   the pointer the create call returned (any size)
     * @param size      sizeof the C struct it points at
     * @param uses      objects it references
     */
    IbvResource(ResourceBase parent, String kind, String destroyOp, MemorySegment pointer, long size,
                ResourceBase... uses) {
        super(parent, kind, destroyOp, uses);
        this.address = pointer.address();
        this.handle = pointer.reinterpret(size, scope(), null);
    }

    /** {@return the pointer, usable only while open (pass it to downcalls)} */
    final MemorySegment handle() {
        ensureOpen();
        return handle;
    }

    /** {@return the native address, stable for the object's life (a registry key)} */
    final long nativeAddress() {
        return address;
    }

    /**
     * Runs a child's creation while this object is open (so a close cannot interleave).
     *
     * @param create the creation
     * @param <T>    the child type
     * @return the child
     * @throws VerbsException what the creation throws
     */
    final <T> T whileOpenCreate(java.util.concurrent.Callable<T> create) throws io.rdma.srq.api.VerbsException {
        return whileOpen(create);
    }

    /** {@return an unscoped pointer for the destroy call only} */
    final MemorySegment raw() {
        return MemorySegment.ofAddress(address);
    }
}
