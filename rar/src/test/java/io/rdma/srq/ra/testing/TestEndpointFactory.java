package io.rdma.srq.ra.testing;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import io.rdma.srq.api.VerbsException;
import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;

import javax.transaction.xa.XAResource;
import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A MessageEndpointFactory as the EJB container provides one, for tests without a container: its
 * endpoints record every message, check that beforeDelivery / onReceive / afterDelivery are strictly
 * paired, count concurrent deliveries, and can be held at a gate or made to throw.
 */
public final class TestEndpointFactory implements MessageEndpointFactory {
    /** One received message, copied during the call. */
    public record Received(int byteLen, byte[] payload, boolean hasImm, int immData, int qpNum, long connectionId,
                           int attempt) {
    }

    /** Messages in arrival order. */
    public final List<Received> received = new CopyOnWriteArrayList<>();
    /** Pairing violations seen (must stay empty). */
    public final List<String> violations = new CopyOnWriteArrayList<>();
    /** Endpoints created and released. */
    public final AtomicInteger created = new AtomicInteger();
    /** Endpoints released. */
    public final AtomicInteger released = new AtomicInteger();
    /** Highest number of deliveries running at once. */
    public final AtomicInteger maxConcurrent = new AtomicInteger();
    private final AtomicInteger concurrent = new AtomicInteger();
    private final java.util.Set<Long> sequences = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile boolean recordPayloads = true;
    private volatile CountDownLatch gate = new CountDownLatch(0);
    private volatile Consumer<ReceiveCompletion> behaviour = c -> { };
    private volatile TestTransactions transactions;
    private final boolean batch;
    private volatile Consumer<List<ReceiveCompletion>> batchBehaviour = b -> { };
    /** Sizes of the batch calls, in order (batch endpoints only). */
    public final List<Integer> batchSizes = new CopyOnWriteArrayList<>();

    /** Endpoints implementing SrqReceiveListener. */
    public TestEndpointFactory() {
        this(false);
    }

    /** @param batch whether the endpoints implement SrqBatchListener (each message recorded as for single ones) */
    public TestEndpointFactory(boolean batch) {
        this.batch = batch;
    }

    /** @param b extra work done in a batch call after every message was recorded (e.g. throwing) */
    public void batchBehaviour(Consumer<List<ReceiveCompletion>> b) {
        this.batchBehaviour = b;
    }

    /**
     * @param t deliveries are transacted (CMT REQUIRED): beforeDelivery begins a transaction of
     *          {@code t}, afterDelivery ends it; null: not transacted
     */
    public void transacted(TestTransactions t) {
        this.transactions = t;
    }

    /** @param record whether to keep a copy of every message (off for large runs; sequences are kept) */
    public void recordPayloads(boolean record) {
        this.recordPayloads = record;
    }

    /** @return distinct first-8-byte sequence numbers seen */
    public int distinctSequences() {
        return sequences.size();
    }

    /**
     * A behaviour that answers each request with {@code ReceiveCompletion.reply} of its own payload
     * (an echo), e.g. {@code behaviour(TestEndpointFactory::echo)}.
     *
     * @param c the delivered request
     * @throws IllegalStateException wrapping the reply's VerbsException
     */
    public static void echo(ReceiveCompletion c) {
        try {
            c.reply(c.payload());
        } catch (VerbsException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Holds every delivery until {@link #open()}. */
    public void close() {
        gate = new CountDownLatch(1);
    }

    /** Lets held and later deliveries through. */
    public void open() {
        gate.countDown();
    }

    /** @param b extra work (e.g. throwing) done in onReceive after recording */
    public void behaviour(Consumer<ReceiveCompletion> b) {
        this.behaviour = b;
    }

    /** When set, createEndpoint throws UnavailableException (an endpoint that is stopping). */
    public volatile boolean unavailable;

    @Override
    public MessageEndpoint createEndpoint(XAResource xa) throws UnavailableException {
        if (unavailable) {
            throw new UnavailableException("the test endpoint is unavailable (stopping)");
        }
        created.incrementAndGet();
        return batch ? new BatchEndpoint() : new Endpoint();
    }

    @Override
    public MessageEndpoint createEndpoint(XAResource xa, long timeout) throws UnavailableException {
        return createEndpoint(xa);
    }

    @Override
    public boolean isDeliveryTransacted(Method method) {
        return transactions != null;
    }

    @Override
    public String getActivationName() {
        return "TestEndpoint";
    }

    @Override
    public Class<?> getEndpointClass() {
        return batch ? BatchEndpoint.class : Endpoint.class;
    }

    /** A batch MDB stand-in: records each message of a call as {@link Endpoint} does, then the batch behaviour. */
    public final class BatchEndpoint implements MessageEndpoint, io.rdma.srq.api.SrqBatchListener {
        private final Endpoint single = new Endpoint();

        @Override
        public void beforeDelivery(Method method) {
            if (!method.getDeclaringClass().equals(io.rdma.srq.api.SrqBatchListener.class)) {
                violations.add("beforeDelivery of " + method + " on a batch endpoint");
            }
            single.beforeDelivery(method);
        }

        @Override
        public void onReceive(List<ReceiveCompletion> batch) {
            batchSizes.add(batch.size());
            for (int i = 0; i < batch.size(); i++) {
                if (i > 0) {
                    single.state = "before";
                }
                single.onReceive(batch.get(i));
            }
            batchBehaviour.accept(batch);
        }

        @Override
        public void afterDelivery() {
            single.afterDelivery();
        }

        @Override
        public void release() {
            released.incrementAndGet();
        }
    }

    /** The endpoint: an MDB instance stand-in. */
    public final class Endpoint implements MessageEndpoint, SrqReceiveListener {
        private String state = "idle";

        @Override
        public void beforeDelivery(Method method) {
            if (!state.equals("idle")) {
                violations.add("beforeDelivery in state " + state);
            }
            state = "before";
            TestTransactions t = transactions;
            if (t != null) {
                t.begin();
            }
        }

        @Override
        public void onReceive(ReceiveCompletion c) {
            if (!state.equals("before")) {
                violations.add("onReceive in state " + state);
            }
            state = "delivering";
            int now = concurrent.incrementAndGet();
            maxConcurrent.accumulateAndGet(now, Math::max);
            try {
                if (c.length() >= 8) {
                    sequences.add(c.payload().order(java.nio.ByteOrder.nativeOrder()).getLong(0));
                }
                if (recordPayloads) {
                    received.add(new Received(c.length(), c.copyPayload(), c.hasImmData(), c.immData(), c.qpNum(),
                            c.connectionId(), c.deliveryAttempt()));
                }
                if (!gate.await(30, TimeUnit.SECONDS)) {
                    violations.add("gate never opened");
                }
                behaviour.accept(c);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                TestTransactions t = transactions;
                if (t != null) {
                    t.setRollbackOnly(); // a system exception rolls the CMT transaction back
                }
                throw e;
            } finally {
                concurrent.decrementAndGet();
                state = "delivered";
            }
        }

        @Override
        public void afterDelivery() {
            if (!state.equals("delivered")) {
                violations.add("afterDelivery in state " + state);
            }
            state = "idle";
            TestTransactions t = transactions;
            if (t != null) {
                t.end();
            }
        }

        @Override
        public void release() {
            released.incrementAndGet();
        }
    }
}
