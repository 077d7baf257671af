package io.rdma.srq.ra.support;

import io.rdma.srq.api.VerbsException;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Closes things one after another, for teardowns and rollbacks: every close is attempted whatever
 * the ones before did, {@code null}s are skipped, and the failures ({@link Exception}s thrown by
 * {@link AutoCloseable#close()}) are collected — to be thrown (the first, the others suppressed
 * into it), added to the exception that caused a rollback, or logged.
 *
 * <pre>{@code
 * new Teardown().close(connection).close(ring).close(qp).close(cq).throwIfFailed();   // teardown
 * catch (RuntimeException e) { Teardown.rollback(e, qp, cq); throw e; } // rollback
 * Teardown.quietly(listener);                                                          // best effort
 * }</pre>
 *
 * Not thread-safe: one teardown per thread.
 */
public final class Teardown {
    private static final Logger LOG = Logger.getLogger(Teardown.class);

    private final List<Exception> failures = new ArrayList<>();

    /**
     * Closes {@code c}; a failure is recorded, not thrown.
     *
     * @param c what to close, or null
     * @return this teardown
     */
    public Teardown close(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                failures.add(e);
            }
        }
        return this;
    }

    /**
     * Closes each of {@code cs} in order, as {@link #close(AutoCloseable)}.
     *
     * @param cs what to close
     * @return this teardown
     */
    public Teardown closeAll(Iterable<? extends AutoCloseable> cs) {
        cs.forEach(this::close);
        return this;
    }

    /** @return the failures so far, in the order they happened */
    public List<Exception> failures() {
        return List.copyOf(failures);
    }

    /**
     * Throws the first failure, the others suppressed into it.
     *
     * @throws VerbsException the first failure when it is one (typically the errno of a destroy)
     * @throws RuntimeException the first failure when it is unchecked; any other checked failure
     *                          wrapped in an {@link IllegalStateException}
     */
    public void throwIfFailed() throws VerbsException {
        if (failures.isEmpty()) {
            return;
        }
        Exception first = failures.getFirst();
        failures.stream().skip(1).forEach(first::addSuppressed);
        switch (first) {
            case VerbsException v -> throw v;
            case RuntimeException r -> throw r;
            default -> throw new IllegalStateException(first);
        }
    }

    /**
     * Throws {@code wrap} of the first failure, the others suppressed into it.
     *
     * @param wrap makes the exception to throw from the first failure (its cause)
     * @param <E>  the exception's type
     * @throws E when a close failed
     */
    public <E extends Exception> void throwIfFailed(Function<Exception, E> wrap) throws E {
        if (!failures.isEmpty()) {
            E e = wrap.apply(failures.getFirst());
            failures.stream().skip(1).forEach(e::addSuppressed);
            throw e;
        }
    }

    /**
     * Adds every failure so far to {@code cause} as suppressed.
     *
     * @param cause the exception that made the caller tear down
     * @param <T>   its type
     * @return {@code cause}
     */
    public <T extends Throwable> T suppressInto(T cause) {
        failures.forEach(cause::addSuppressed);
        return cause;
    }

    /**
     * Rollback after a failed build: closes what was opened, in the given order, every failure
     * suppressed into {@code cause}. Rethrow {@code cause} after it.
     *
     * @param cause  why the build failed
     * @param opened what it had opened so far (nulls skipped), children first
     * @param <T>    the cause's type
     * @return {@code cause}
     */
    public static <T extends Throwable> T rollback(T cause, AutoCloseable... opened) {
        Teardown t = new Teardown();
        for (AutoCloseable c : opened) {
            t.close(c);
        }
        return t.suppressInto(cause);
    }

    /**
     * Closes {@code c} (if not null), logging a failure at debug: for teardowns where nobody could
     * act on the failure (deactivation, a lost connection).
     *
     * @param c what to close, or null
     */
    public static void quietly(AutoCloseable c) {
        for (Exception e : new Teardown().close(c).failures) {
            LOG.debugf("close of %s: %s", c, e.getMessage());
        }
    }
}
