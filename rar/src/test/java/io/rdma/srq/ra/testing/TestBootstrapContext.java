package io.rdma.srq.ra.testing;

import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.XATerminator;
import jakarta.resource.spi.work.WorkContext;
import jakarta.resource.spi.work.WorkManager;
import jakarta.transaction.TransactionSynchronizationRegistry;

import java.util.Timer;

/** A minimal BootstrapContext for container-less adapter tests (like the Artemis RA tests). */
public final class TestBootstrapContext implements BootstrapContext {
    private final TestWorkManager workManager;
    private volatile TransactionSynchronizationRegistry transactions;

    /** With a {@link TestWorkManager} that runs every scheduled Work on its pool. */
    public TestBootstrapContext() {
        this(new TestWorkManager());
    }

    /** @param workManager the WorkManager to give the adapter */
    public TestBootstrapContext(TestWorkManager workManager) {
        this.workManager = workManager;
    }

    /** @param registry what {@link #getTransactionSynchronizationRegistry()} returns (null: none) */
    public void transactions(TransactionSynchronizationRegistry registry) {
        this.transactions = registry;
    }

    @Override
    public WorkManager getWorkManager() {
        return workManager;
    }

    /** @return the work manager, to shut it down */
    public TestWorkManager testWorkManager() {
        return workManager;
    }

    @Override
    public XATerminator getXATerminator() {
        return null;
    }

    @Override
    public Timer createTimer() {
        return new Timer(true);
    }

    @Override
    public boolean isContextSupported(Class<? extends WorkContext> workContextClass) {
        return false;
    }

    @Override
    public TransactionSynchronizationRegistry getTransactionSynchronizationRegistry() {
        return transactions;
    }
}
