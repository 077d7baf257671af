package io.rdma.srq.it.mdb;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqBatchListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** A batch MDB (port {@value #PORT}): records every message of each batch call and the largest batch. */
@MessageDriven(messageListenerInterface = SrqBatchListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = Messages.ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + BatchMdb.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = BatchMdb.NAME),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "512"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "16"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "maxBatchSize", propertyValue = "" + BatchMdb.MAX_BATCH),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "4")})
public class BatchMdb implements SrqBatchListener {
    /** listenPort. */
    public static final int PORT = 7489;
    /** srqName and tally name. */
    public static final String NAME = "batch";
    /** The payload marker. */
    public static final byte MARKER = 'B';
    /** maxBatchSize. */
    public static final int MAX_BATCH = 16;
    /** The largest batch seen. */
    public static final AtomicInteger LARGEST = new AtomicInteger();
    /** Batch calls. */
    public static final AtomicInteger CALLS = new AtomicInteger();

    @Override
    public void onReceive(List<ReceiveCompletion> batch) {
        CALLS.incrementAndGet();
        LARGEST.accumulateAndGet(batch.size(), Math::max);
        for (ReceiveCompletion c : batch) {
            Tally.of(NAME).record(c, MARKER);
        }
    }
}
