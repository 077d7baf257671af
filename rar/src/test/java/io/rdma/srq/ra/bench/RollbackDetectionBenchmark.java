package io.rdma.srq.ra.bench;

import com.arjuna.ats.internal.jta.transaction.arjunacore.TransactionSynchronizationRegistryImple;
import io.rdma.srq.ra.inbound.delivery.DeliveryRules;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * What it costs the adapter to learn that a delivery's container transaction rolled back
 * ({@link DeliveryRules#watch()}: one getTransactionStatus, then one interposed Synchronization
 * registered and its afterCompletion status read), against the local JTA transaction the container
 * begins and commits around every REQUIRED delivery anyway. Narayana 7.3.3 (the transaction manager
 * of WildFly 39), arjunacore local transactions, one thread, no resource enlisted (a one-phase
 * commit that writes no log), container-less: the container's own interceptors around it are not
 * here.
 * <ul>
 *   <li>{@code transaction}: begin, commit — the container's part;</li>
 *   <li>{@code transactionWatched}: begin, watch, commit, read the outcome — what a REQUIRED delivery
 *       costs with the adapter's detection;</li>
 *   <li>{@code rollbackWatched}: begin, watch, setRollbackOnly, rollback, read the outcome;</li>
 *   <li>{@code noTransaction}: watch without a transaction (NOT_SUPPORTED): one getTransactionStatus.</li>
 * </ul>
 * The detection's cost is {@code transactionWatched} − {@code transaction}. Sample time: on a
 * loaded machine the median of single operations is what a preemption does not move (the average is
 * dominated by the few operations that were preempted).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 10, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-DObjectStoreEnvironmentBean.objectStoreDir=target/narayana-store",
        "-Dcom.arjuna.ats.arjuna.objectstore.objectStoreDir=target/narayana-store"})
public class RollbackDetectionBenchmark {
    private TransactionManager tm;
    private DeliveryRules rules;

    @Setup
    public void setUp() {
        tm = com.arjuna.ats.jta.TransactionManager.transactionManager();
        TransactionSynchronizationRegistry tsr = new TransactionSynchronizationRegistryImple();
        rules = new DeliveryRules("bench", 1, tsr, null, getClass().getClassLoader(), false, 32);
    }

    @Benchmark
    public void transaction() throws Exception {
        tm.begin();
        tm.commit();
    }

    @Benchmark
    public boolean transactionWatched() throws Exception {
        tm.begin();
        DeliveryRules.Outcome outcome = rules.watch();
        tm.commit();
        return outcome.rolledBack();
    }

    @Benchmark
    public boolean rollbackWatched() throws Exception {
        tm.begin();
        DeliveryRules.Outcome outcome = rules.watch();
        tm.setRollbackOnly();
        tm.rollback();
        if (!outcome.rolledBack()) {
            throw new IllegalStateException("the rollback was not seen");
        }
        return true;
    }

    @Benchmark
    public Object noTransaction() {
        return rules.watch();
    }
}
