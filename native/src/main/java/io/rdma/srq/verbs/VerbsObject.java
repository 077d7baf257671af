package io.rdma.srq.verbs;

import io.rdma.srq.api.VerbsException;

/**
 * A verbs object that owns exactly one native object (or, on the soft device, its in-JVM
 * equivalent).
 *
 * <p>Lifecycle rules, common to every provider:
 * <ul>
 *   <li>{@link #close()} closes the children first (a PD's QPs, SRQs and MRs before the PD), then
 *       the object itself. It is idempotent.</li>
 *   <li>An object that other objects still use (an SRQ or CQ with QPs attached) refuses a direct
 *       close with {@code EBUSY}; closing its parent closes those users first.</li>
 *   <li>Any use after close throws {@link IllegalStateException}: every method of a closed object
 *       but {@link #close()} and {@link #isClosed()}, accessors included (a closed MR has no lkey, a
 *       closed QP no number), whether it was closed itself or by its parent. Freed native memory is
 *       never touched (the handle lives in a shared arena that is closed before the native destroy).</li>
 * </ul>
 */
public interface VerbsObject extends AutoCloseable {

    /**
     * Destroys the native object after closing its children.
     *
     * @throws VerbsException {@code EBUSY} while other objects use this one (e.g. ibv_destroy_srq
     *                        with QPs attached, which rxe itself does not refuse), or the errno of
     *                        the native destroy call; the object counts as closed in that case
     */
    @Override
    void close() throws VerbsException;

    /** {@return whether {@link #close()} has run} */
    boolean isClosed();
}
