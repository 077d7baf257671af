package io.rdma.srq.it.mdb;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;

/**
 * The body of the suspend test's MDBs ({@link SuspendAMdb}, {@link SuspendBMdb}, {@link SuspendCMdb}):
 * records each message in the stream's {@link Tally} and takes {@value #MILLIS} ms per message, so
 * that a backlog builds up in the CQ and deactivation has something to drain. Tells {@link Pauses} of
 * each delivery.
 */
public abstract class SuspendSink implements SrqReceiveListener {
    /** Time per message, ms. */
    public static final int MILLIS = 4;
    /** receive WRs posted and srqMaxWr: the backlog a sender can build (about 512 x 4 ms = 2 s of work). */
    public static final int BACKLOG = 512;

    /** @return the stream's name (srqName and tally name) */
    protected abstract String name();

    /** @return the stream's payload marker */
    protected abstract byte marker();

    @Override
    public void onReceive(ReceiveCompletion completion) {
        Tally.of(name()).record(completion, marker());
        Pauses.delivered(name());
        try {
            Thread.sleep(MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
