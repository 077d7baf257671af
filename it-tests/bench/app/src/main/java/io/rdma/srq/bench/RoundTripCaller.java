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
 * digits). NOT_SUPPORTED: a request sent inside a caller transaction would leave only at its commit,
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
     * @return the histogram and the timed phase's start and end
     * @throws Exception from the transport, or a reply timeout
     */
    @Asynchronous
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public Future<CallerResult> run(String label, int warmup, int calls, int size) throws Exception {
        Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        try (RoundTrip.Caller caller = trips.of(label).open(size)) {
            for (int i = 0; i < warmup; i++) {
                caller.call();
            }
            long start = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                long t0 = System.nanoTime();
                caller.call();
                histogram.recordValue(System.nanoTime() - t0);
            }
            return new AsyncResult<>(new CallerResult(histogram, start, System.nanoTime()));
        }
    }
}
