package io.rdma.srq.api;

import java.lang.foreign.MemorySegment;

/**
 * Memory registered with the connection's protection domain (ibv_reg_mr(3)). Closing it
 * deregisters and frees it; so does closing the connection handle it came from.
 */
public interface RegisteredMemory extends AutoCloseable {

    /** {@return the memory, not accessible after close} */
    MemorySegment segment();

    /** {@return length in bytes} */
    long length();

    /** {@return the local key (lkey) for SGEs} */
    int lkey();

    /** {@return the remote key (rkey)} */
    int rkey();

    /**
     * Deregisters and frees. Idempotent.
     *
     * @throws VerbsException the errno of ibv_dereg_mr (the memory is freed regardless)
     */
    @Override
    void close();
}
