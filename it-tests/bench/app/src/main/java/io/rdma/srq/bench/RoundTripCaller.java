package io.rdma.srq.bench;

import jakarta.ejb.AsyncResult;
import jakarta.ejb.Asynchronous;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import org.HdrHistogram.Histogram;

import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The EJB caller: one caller thread's loop of {@code warmup} untimed and then {@code calls} timed
 * round trips through a {@link RoundTrip}, each recorded in an HdrHistogram (ns, 3 significant
 * digits); the warm-up stops after {@code maxMillis / 3} and the timed phase after {@code maxMillis}
 * ms if they have not ended before (so a slow case bounds the run's time, not its count). NOT_SUPPORTED: a request sent inside a caller transaction would leave only at its commit,
 * after the wait for the reply.
 */
@Stateless
public class RoundTripCaller {
    @Inject
    RoundTrips trips;

    /**
     * @param label  the case ({@link RoundTrips#of})
     * @param warmup untimed calls first
     * @param calls  timed calls
     * @param size   bytes per request
     * @param maxMillis longest timed phase, ms
     * @return the histogram and the timed phase's start and end
     * @throws Exception from the transport, or a reply timeout
     */
    @Asynchronous
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public Future<CallerResult> run(String label, int warmup, int calls, int size, long maxMillis) throws Exception {
        Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        try (RoundTrip.Caller caller = trips.of(label).open(size)) {
            long warmupEnd = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxMillis / 3);
            for (int i = 0; i < warmup && System.nanoTime() < warmupEnd; i++) {
                caller.call();
            }
            long start = System.nanoTime();
            long end = start + TimeUnit.MILLISECONDS.toNanos(maxMillis);
            for (int i = 0; i < calls; i++) {
                long t0 = System.nanoTime();
                caller.call();
                long t1 = System.nanoTime();
                histogram.recordValue(t1 - t0);
                if (t1 > end) {
                    break;
                }
            }
            return new AsyncResult<>(new CallerResult(histogram, start, System.nanoTime()));
        }
    }
}
