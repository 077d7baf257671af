package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.RpmaMemory;
import io.rdma.srq.verbs.ffi.rpma.Rpma;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** {@link RpmaMemory}: page-aligned memory it owns, registered with rpma_mr_reg(3), freed after rpma_mr_dereg. */
final class IbvRpmaMemory extends IbvResource implements RpmaMemory {
    private final Arena memory;
    private final MemorySegment buffer;

    private IbvRpmaMemory(IbvRpmaPeer peer, MemorySegment mr, Arena memory, MemorySegment buffer) {
        super(peer, "rpma MR of " + buffer.byteSize() + " bytes", "rpma_mr_dereg", mr, 0);
        this.memory = memory;
        this.buffer = buffer;
    }

    static IbvRpmaMemory register(IbvRpmaPeer peer, long bytes, int usage) throws VerbsException {
        Arena memory = Arena.ofShared();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = memory.allocate(bytes, 4096);
            MemorySegment cell = arena.allocate(ValueLayout.ADDRESS);
            Librpma.call("rpma_mr_reg", bytes + " bytes", Librpma.H.MR_REG, null, peer.handle(), buffer, bytes, usage, cell);
            return new IbvRpmaMemory(peer, cell.get(ValueLayout.ADDRESS, 0), memory, buffer);
        } catch (RuntimeException e) {
            memory.close();
            throw e;
        }
    }

    @Override
    public MemorySegment segment() {
        ensureOpen();
        return buffer;
    }

    /** {@return the rpma_mr_local pointer, while open} */
    MemorySegment mr() {
        return handle();
    }

    @Override
    protected void destroy() throws VerbsException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cell = arena.allocate(ValueLayout.ADDRESS);
            cell.set(ValueLayout.ADDRESS, 0, raw());
            Librpma.check("rpma_mr_dereg", Rpma.rpma_mr_dereg(cell), kind());
        } finally {
            memory.close();
        }
    }
}
