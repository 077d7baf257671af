package io.rdma.srq.verbs.spi;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.VerbsObject;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The lifecycle every provider's verbs objects share: a parent, children closed first, users
 * (objects that reference this one, e.g. QPs on an SRQ) that make a direct close fail with EBUSY,
 * idempotent close, and {@link IllegalStateException} on use after close.
 *
 * <p>Memory safety: native handles are bound to {@link #scope()}, a shared arena closed before the
 * native destroy. A downcall that receives a scoped handle keeps the arena alive for its duration,
 * so a concurrent close waits for it ({@link #CLOSE_WAIT_MILLIS} at most) and no call ever runs on
 * a freed object. Creation of children holds this object's read lock so that a close cannot
 * interleave with it.
 */
public abstract class ResourceBase implements VerbsObject {
    /** The longest a close waits for in-flight calls on the object before it gives up. */
    public static final long CLOSE_WAIT_MILLIS = 5_000;

    private final ResourceBase parent;
    private final String kind;
    private final String destroyOperation;
    private final List<ResourceBase> uses;
    private final Arena scope = Arena.ofShared();
    private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
    private final LinkedHashSet<ResourceBase> children = new LinkedHashSet<>();
    private final LinkedHashSet<ResourceBase> users = new LinkedHashSet<>();
    private volatile boolean closed;
    /** Set under the users/children monitors when a close commits, so no new user or child can link. */
    private volatile boolean closing;

    /**
     * Registers the new object with its parent and with the objects it uses. Call from a factory
     * that holds the parent's {@link #whileOpen} section.
     *
     * @param parent           the parent, or {@code null} for a root (a context)
     * @param kind             a short description for messages, e.g. "SRQ on rxe0"
     * @param destroyOperation the C function that destroys it, e.g. {@code ibv_destroy_srq}
     * @param uses             objects this one references and that may not close before it
     */
    protected ResourceBase(ResourceBase parent, String kind, String destroyOperation, ResourceBase... uses) {
        this.parent = parent;
        this.kind = kind;
        this.destroyOperation = destroyOperation;
        this.uses = List.of(uses);
        if (parent != null) {
            parent.link(parent.children, this);
        }
        for (ResourceBase used : uses) {
            used.link(used.users, this);
        }
    }

    /** {@return the arena native handles of this object are bound to; closed by {@link #close()}} */
    protected final Arena scope() {
        return scope;
    }

    /** {@return the description used in messages} */
    public final String kind() {
        return kind;
    }

    @Override
    public final boolean isClosed() {
        return closed;
    }

    /**
     * Refuses use after close; the check of one volatile field, cheap enough for every call.
     *
     * @throws IllegalStateException if closed
     */
    protected final void ensureOpen() {
        if (closed) {
            throw new IllegalStateException(kind + " is closed");
        }
    }

    /**
     * Runs {@code action} while this object is guaranteed open (creating a child, for instance).
     *
     * @param action what to run
     * @param <T>    its result
     * @return the result
     * @throws VerbsException        what the action throws
     * @throws IllegalStateException if this object is closed
     */
    protected final <T> T whileOpen(Callable<T> action) throws VerbsException {
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            return action.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /**
     * Runs {@code action} while this object and every object in {@code alsoOpen} are guaranteed open:
     * for a creation that will use them (a QP uses its CQs and SRQ), so none of them can be closed
     * between the check and the native create.
     *
     * @param action   what to run
     * @param alsoOpen further objects to hold open (nulls are skipped)
     * @param <T>      its result
     * @return the result
     * @throws VerbsException        what the action throws
     * @throws IllegalStateException if any of them is closed
     */
    protected final <T> T whileOpen(Callable<T> action, ResourceBase... alsoOpen) throws VerbsException {
        return whileAllOpen(action, alsoOpen, 0);
    }

    private <T> T whileAllOpen(Callable<T> action, ResourceBase[] others, int next) throws VerbsException {
        if (next == others.length) {
            return whileOpen(action);
        }
        ResourceBase other = others[next];
        return other == null ? whileAllOpen(action, others, next + 1)
                : other.whileOpen(() -> whileAllOpen(action, others, next + 1));
    }

    /** {@return how many open objects use this one} */
    protected final int userCount() {
        synchronized (users) {
            return users.size();
        }
    }

    @Override
    public final void close() throws VerbsException {
        close(false);
    }

    private void close(boolean cascade) throws VerbsException {
        lifecycle.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            List<ResourceBase> dependents;
            synchronized (users) {
                dependents = new ArrayList<>(users);
                if (!cascade && !dependents.isEmpty()) {
                    throw new VerbsException(destroyOperation, Errno.EBUSY,
                            kind + " is still used by " + dependents.size() + " object(s): " + describe(dependents));
                }
                closing = true; // from here on a new user fails to link instead of slipping past the check
            }
            synchronized (children) {
                closing = true;
            }
            VerbsException first = null;
            for (ResourceBase d : dependents.reversed()) {
                first = closeQuietly(d, first);
            }
            for (ResourceBase c : snapshot(children).reversed()) {
                first = closeQuietly(c, first);
            }
            closed = true;
            closeScope();
            try {
                destroy();
            } finally {
                for (ResourceBase used : uses) {
                    used.unlink(used.users, this);
                }
                if (parent != null) {
                    parent.unlink(parent.children, this);
                }
            }
            if (first != null) {
                throw first;
            }
        } finally {
            lifecycle.writeLock().unlock();
        }
    }

    private static VerbsException closeQuietly(ResourceBase r, VerbsException first) {
        try {
            r.close(true);
        } catch (VerbsException e) {
            if (first == null) {
                return e;
            }
            first.addSuppressed(e);
        }
        return first;
    }

    private void closeScope() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_WAIT_MILLIS);
        while (true) {
            try {
                scope.close();
                return;
            } catch (IllegalStateException inUse) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(kind + " is still in use by a running call after "
                            + CLOSE_WAIT_MILLIS + " ms; not destroyed", inUse);
                }
                Thread.onSpinWait();
                Thread.yield();
            }
        }
    }

    /**
     * Destroys the native object. Runs once, after children and users are closed and the scope is
     * closed; must use only raw addresses kept aside, never scoped segments.
     *
     * @throws VerbsException the errno of the native destroy
     */
    protected abstract void destroy() throws VerbsException;

    private void link(LinkedHashSet<ResourceBase> set, ResourceBase r) {
        synchronized (set) {
            if (closing || closed) {
                throw new IllegalStateException(kind + " is closed");
            }
            set.add(r);
        }
    }

    private void unlink(LinkedHashSet<ResourceBase> set, ResourceBase r) {
        synchronized (set) {
            set.remove(r);
        }
    }

    private static List<ResourceBase> snapshot(LinkedHashSet<ResourceBase> set) {
        synchronized (set) {
            return new ArrayList<>(set);
        }
    }

    private static String describe(List<ResourceBase> list) {
        return String.join(", ", list.stream().map(ResourceBase::kind).toList());
    }

    @Override
    public String toString() {
        return kind + (closed ? " (closed)" : "");
    }
}
