package io.rdma.srq.ra.bench;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqBatchListener;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;

import javax.transaction.xa.XAResource;
import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Endpoints whose onReceive does nothing but note the time (System.nanoTime) of the first and the
 * last delivery: what the adapter's own path costs, without the application. {@link #batches()}
 * makes batch listeners instead ({@link SrqBatchListener}) that only count their messages.
 */
public final class NoOpEndpointFactory implements MessageEndpointFactory {
    private final AtomicLong first = new AtomicLong();
    private final boolean clock;
    private final LongAdder batched = new LongAdder();
    private final boolean batch;
    private volatile long last;

    /** Endpoints that note the first and last delivery time. */
    public NoOpEndpointFactory() {
        this(true);
    }

    /** @param clock whether onReceive notes the time (false: it does nothing at all) */
    public NoOpEndpointFactory(boolean clock) {
        this(clock, false);
    }

    private NoOpEndpointFactory(boolean clock, boolean batch) {
        this.clock = clock;
        this.batch = batch;
    }

    /** @return a factory of batch listeners that count the messages of each call ({@link #batched()}) */
    public static NoOpEndpointFactory batches() {
        return new NoOpEndpointFactory(false, true);
    }

    /** @return messages the batch listeners received */
    public long batched() {
        return batched.sum();
    }

    /** @return nanoseconds from the first to the last delivery since the last {@link #resetClock()} */
    public long deliveryNanos() {
        return first.get() == 0 ? 0 : last - first.get();
    }

    /** Starts a new measurement. */
    public void resetClock() {
        first.set(0);
        last = 0;
    }

    @Override
    public MessageEndpoint createEndpoint(XAResource xa) {
        return batch ? new BatchEndpoint() : new Endpoint();
    }

    @Override
    public MessageEndpoint createEndpoint(XAResource xa, long timeout) {
        return createEndpoint(xa);
    }

    @Override
    public boolean isDeliveryTransacted(Method method) {
        return false;
    }

    @Override
    public String getActivationName() {
        return "NoOp";
    }

    @Override
    public Class<?> getEndpointClass() {
        return batch ? BatchEndpoint.class : Endpoint.class;
    }

    /** A batch listener that counts its messages. */
    public final class BatchEndpoint implements MessageEndpoint, SrqBatchListener {
        @Override
        public void onReceive(List<ReceiveCompletion> messages) {
            batched.add(messages.size());
        }

        @Override
        public void beforeDelivery(Method method) {
        }

        @Override
        public void afterDelivery() {
        }

        @Override
        public void release() {
        }
    }

    /** A no-op listener. */
    public final class Endpoint implements MessageEndpoint, SrqReceiveListener {
        @Override
        public void onReceive(ReceiveCompletion c) {
            if (!clock) {
                return;
            }
            long now = System.nanoTime();
            if (first.get() == 0) {
                first.compareAndSet(0, now);
            }
            last = now;
        }

        @Override
        public void beforeDelivery(Method method) {
        }

        @Override
        public void afterDelivery() {
        }

        @Override
        public void release() {
        }
    }
}
