package io.rdma.srq.verbs;

import java.lang.foreign.MemorySegment;

/**
 * A registered memory region ({@code struct ibv_mr}, ibv_reg_mr(3)). Closing it deregisters
 * (ibv_dereg_mr) and, if it owns its memory, frees that memory afterwards.
 */
public interface MemoryRegion extends VerbsObject {

    /** {@return the registered memory (its contents are not accessible after close if the MR owns it)} */
    MemorySegment segment();

    /** {@return the start address (what an SGE's addr holds)} */
    long address();

    /** {@return the length in bytes} */
    long length();

    /** {@return the local key, for SGEs of local work requests} */
    int lkey();

    /** {@return the remote key, for peers' RDMA access} */
    int rkey();
}
