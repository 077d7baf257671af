package io.rdma.srq.verbs;

import java.lang.foreign.MemorySegment;

/** Memory registered with librpma ({@code struct rpma_mr_local}, rpma_mr_reg(3)). */
public interface RpmaMemory extends VerbsObject {

    /** {@return the memory; not accessible after close} */
    MemorySegment segment();
}
