package io.rdma.srq.ra.testing;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A container's transaction synchronization registry for container-less tests: one transaction per
 * thread, begun and ended by the test endpoint's before/afterDelivery as the EJB container does
 * for a CMT REQUIRED MDB; interposed synchronizations get afterCompletion with the outcome.
 */
public final class TestTransactions implements TransactionSynchronizationRegistry {
    private static final class Tx {
        final List<Synchronization> interposed = new ArrayList<>();
        final Map<Object, Object> resources = new HashMap<>();
        boolean rollbackOnly;
    }

    private final ThreadLocal<Tx> current = new ThreadLocal<>();
    /** Transactions committed and rolled back. */
    public final AtomicInteger committed = new AtomicInteger();
    /** Transactions rolled back. */
    public final AtomicInteger rolledBack = new AtomicInteger();

    /** Begins a transaction on this thread (beforeDelivery). */
    public void begin() {
        current.set(new Tx());
    }

    /** Ends this thread's transaction (afterDelivery): rolls back if marked, else commits. */
    public void end() {
        Tx tx = current.get();
        current.remove();
        if (tx == null) {
            return;
        }
        if (!tx.rollbackOnly) {
            tx.interposed.forEach(Synchronization::beforeCompletion);
        }
        int status = tx.rollbackOnly ? Status.STATUS_ROLLEDBACK : Status.STATUS_COMMITTED;
        (tx.rollbackOnly ? rolledBack : committed).incrementAndGet();
        tx.interposed.forEach(s -> s.afterCompletion(status));
    }

    private Tx tx() {
        Tx tx = current.get();
        if (tx == null) {
            throw new IllegalStateException("no transaction on this thread");
        }
        return tx;
    }

    @Override
    public Object getTransactionKey() {
        return current.get();
    }

    @Override
    public void putResource(Object key, Object value) {
        tx().resources.put(key, value);
    }

    @Override
    public Object getResource(Object key) {
        return tx().resources.get(key);
    }

    @Override
    public void registerInterposedSynchronization(Synchronization sync) {
        tx().interposed.add(sync);
    }

    @Override
    public int getTransactionStatus() {
        Tx tx = current.get();
        return tx == null ? Status.STATUS_NO_TRANSACTION
                : tx.rollbackOnly ? Status.STATUS_MARKED_ROLLBACK : Status.STATUS_ACTIVE;
    }

    @Override
    public void setRollbackOnly() {
        tx().rollbackOnly = true;
    }

    @Override
    public boolean getRollbackOnly() {
        return tx().rollbackOnly;
    }
}
