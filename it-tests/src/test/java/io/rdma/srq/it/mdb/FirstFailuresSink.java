package io.rdma.srq.it.mdb;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The body of the pause tests' MDBs ({@link PauseResumeMdb}, {@link PauseTimeoutMdb}): the first
 * {@value #FAILURES} deliveries throw (a downstream system that is down, then back), which is
 * maxSequentialDeliveryFailures: delivery pauses; every later delivery records the message in the
 * stream's {@link Tally}.
 */
public abstract class FirstFailuresSink implements SrqReceiveListener {
    /** Deliveries that fail, and maxSequentialDeliveryFailures. */
    public static final int FAILURES = 5;
    private static final Map<String, AtomicInteger> FAILED = new ConcurrentHashMap<>();

    /** @return the stream's name (srqName and tally name) */
    protected abstract String name();

    /** @return the stream's payload marker */
    protected abstract byte marker();

    @Override
    public void onReceive(ReceiveCompletion completion) {
        if (FAILED.computeIfAbsent(name(), n -> new AtomicInteger()).getAndIncrement() < FAILURES) {
            throw new IllegalStateException("the downstream system is down (message " + completion.immData() + ")");
        }
        Tally.of(name()).record(completion, marker());
    }
}
