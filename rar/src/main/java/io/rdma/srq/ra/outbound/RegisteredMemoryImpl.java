package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.RegisteredMemory;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.MemoryRegion;

import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

/**
 * {@link RegisteredMemory} over an MR that owns its memory. After close (its own, or its connection
 * handle's) every method but {@link #close()} throws IllegalStateException.
 */
final class RegisteredMemoryImpl implements RegisteredMemory {
    private final MemoryRegion mr;
    private final Consumer<RegisteredMemoryImpl> onClose;

    RegisteredMemoryImpl(MemoryRegion mr, Consumer<RegisteredMemoryImpl> onClose) {
        this.mr = mr;
        this.onClose = onClose;
    }

    private MemoryRegion mr() {
        if (mr.isClosed()) {
            throw new IllegalStateException("the registered memory is closed");
        }
        return mr;
    }

    @Override
    public MemorySegment segment() {
        return mr().segment();
    }

    @Override
    public long length() {
        return mr().length();
    }

    @Override
    public int lkey() {
        return mr().lkey();
    }

    @Override
    public int rkey() {
        return mr().rkey();
    }

    @Override
    public void close() throws VerbsException {
        try {
            mr.close();
        } finally {
            onClose.accept(this);
        }
    }
}
