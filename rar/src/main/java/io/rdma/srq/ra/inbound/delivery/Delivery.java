package io.rdma.srq.ra.inbound.delivery;

import io.rdma.srq.ra.support.CallNumbers;
import io.rdma.srq.ra.inbound.connections.Links;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.api.ReceivedMessage;
import io.rdma.srq.api.ReplyHandle;
import io.rdma.srq.api.RetainedMessage;
import io.rdma.srq.verbs.WorkCompletionArray;
import io.rdma.srq.api.SrqBatchFailure;
import io.rdma.srq.api.SrqBatchListener;
import io.rdma.srq.api.SrqDeadLetter;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.work.Work;
import jakarta.transaction.RollbackException;
import org.jboss.logging.Logger;

import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A batch of received messages (one poll of the CQ, up to its capacity) on its way to ONE endpoint:
 * copies of the work completions' fields (never the reusable WC array itself, driver note 14), delivered
 * one by one, each with beforeDelivery / onReceive / afterDelivery strictly paired. A failed attempt
 * (see {@link DeliveryRules}) is repeated at once, on the same buffer, until maxDeliveryAttempts;
 * then the message is dead-lettered and the batch goes on with the next. One Work and one
 * endpoint per batch, not per message, is what keeps the container's hand-off off the per-message
 * cost. The batch then goes back to the poller, which reposts its buffers and reuses the object.
 *
 * <p>Each message gets its own {@link Message} (the {@link ReceiveCompletion} the endpoint sees),
 * usable only during its call: every method of a kept one throws IllegalStateException, it never
 * speaks for a later message of the batch.
 * What outlives the call is taken during it: {@code copy()} (heap bytes), {@code replyHandle()}
 * ({@link ConnectionReply}) and {@code retain()} ({@link RetainedBuffers}: the buffer is then not
 * handed back with the batch, but once both the batch ended and the application released it; a
 * retain() racing the end of its call, from another thread, either keeps the buffer or throws).
 * Payload views live in an arena of the delivering thread, closed when the batch ends and before
 * its buffers are reposted (and the activation frees the slab only after every batch ended): a
 * ByteBuffer kept past its call throws instead of showing a reposted or freed buffer.
 */
public final class Delivery implements Work {
    private static final Logger LOG = Logger.getLogger(Delivery.class);
    static final Method ON_RECEIVE;
    static final Method ON_BATCH;

    static {
        try {
            ON_RECEIVE = SrqReceiveListener.class.getMethod("onReceive", ReceiveCompletion.class);
            ON_BATCH = SrqBatchListener.class.getMethod("onReceive", List.class);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    private final EndpointPool endpoints;
    private final ReceiveBuffers buffers;
    private final Links links;
    private final Consumer<Delivery> ended;
    private final BooleanSupplier abandoned;
    private final int[] buffer;
    private final int[] byteLen;
    private final boolean[] hasImm;
    private final int[] immData;
    private final int[] qpNum;
    private final long[] connectionId;
    /** Messages copied out of the SRQ (ordering=connection past maxHeldPerConnection); null: in the buffer. */
    private final byte[][] copied;
    /** Messages whose buffer a RetainedMessage took over; null: the poller takes the buffer back. */
    private final RetainedMessage[] retainedBy;
    private final RetainedBuffers retained;
    private final DeliveryRules rules;
    private final FailurePause pause;
    private final boolean batchListener;
    private final int batchSize;
    private int count;
    private int failures;
    private int skipped;
    private int redelivered;
    private int deadLettered;
    private int notRun;
    /** The endpoint of this run, taken on its first attempt. */
    private MessageEndpoint endpoint;
    private Arena views;

    /**
     * @param name      the activation's SRQ name, for logs
     * @param endpoints the activation's endpoints
     * @param buffers   its receive buffers (the payloads)
     * @param links     its connections (the replies)
     * @param ended     takes the batch back when its delivery ended (the poller)
     * @param abandoned true once deactivation's drain timeout passed: messages not yet begun are skipped
     * @param rules     attempts per message, transaction watch, dead letters
     * @param pause     told of every success and dead letter (the pause after consecutive failures)
     * @param retained  where retain() keeps buffers past the call
     * @param capacity  messages per batch at most
     */
    Delivery(String name, EndpointPool endpoints, ReceiveBuffers buffers, Links links, Consumer<Delivery> ended,
             BooleanSupplier abandoned, DeliveryRules rules, FailurePause pause, RetainedBuffers retained,
             int capacity) {
        this.pause = pause;
        this.name = name;
        this.rules = rules;
        this.batchListener = rules.batchListener();
        this.batchSize = batchListener ? rules.maxBatchSize() : 1;
        this.endpoints = endpoints;
        this.buffers = buffers;
        this.links = links;
        this.ended = ended;
        this.abandoned = abandoned;
        this.buffer = new int[capacity];
        this.byteLen = new int[capacity];
        this.hasImm = new boolean[capacity];
        this.immData = new int[capacity];
        this.qpNum = new int[capacity];
        this.connectionId = new long[capacity];
        this.copied = new byte[capacity][];
        this.retainedBy = new RetainedMessage[capacity];
        this.retained = retained;
    }

    /** Adds the successful completion {@code i} of {@code wcs}; its wr_id is the buffer index. */
    void add(WorkCompletionArray wcs, int i) {
        int k = count++;
        buffer[k] = (int) wcs.wrId(i);
        copied[k] = null;
        byteLen[k] = wcs.byteLen(i);
        hasImm[k] = wcs.hasImm(i);
        immData[k] = hasImm[k] ? wcs.immData(i) : 0;
        qpNum[k] = wcs.qpNum(i);
        connectionId[k] = links.connectionId(qpNum[k]);
    }

    /** Adds a message that waited in its connection's lane ({@link ConnectionLanes}). */
    void add(ConnectionLanes.Waiting w) {
        int k = count++;
        buffer[k] = w.buffer();
        byteLen[k] = w.byteLen();
        hasImm[k] = w.hasImm();
        immData[k] = w.immData();
        qpNum[k] = w.qpNum();
        connectionId[k] = w.connectionId();
        copied[k] = w.bytes();
    }

    int count() {
        return count;
    }

    /** @return messages the batch holds at most */
    int capacity() {
        return buffer.length;
    }

    /** @return the connection id of message {@code k} */
    long connectionId(int k) {
        return connectionId[k];
    }

    int failures() {
        return failures;
    }

    /** @return delivery attempts after a failed one */
    int redelivered() {
        return redelivered;
    }

    /** @return messages whose every attempt failed (dead-lettered) */
    int deadLettered() {
        return deadLettered;
    }

    /** @return calls the endpoint refused before they ran, answered "not run" to their callers */
    int notRun() {
        return notRun;
    }

    /** @return messages of the batch never begun: the drain timeout passed first */
    int skipped() {
        return skipped;
    }

    /**
     * @return the receive buffer (wr_id) of message {@code k} for the poller to take back; -1 when it
     *         was copied out, or a retained message took it over
     */
    int buffer(int k) {
        return retainedBy[k] != null ? -1 : buffer[k];
    }

    /** Empties the batch for reuse (poller only, after it came back). */
    void clear() {
        java.util.Arrays.fill(copied, 0, count, null);
        java.util.Arrays.fill(retainedBy, 0, count, null);
        count = 0;
        failures = 0;
        skipped = 0;
        redelivered = 0;
        deadLettered = 0;
        notRun = 0;
    }

    @Override
    public void run() {
        try {
            int k = 0;
            while (k < count) {
                if (abandoned.getAsBoolean()) {
                    skipped = count - k;
                    break;
                }
                k = batchSize > 1 ? deliverBatch(k, Math.min(count, k + batchSize)) : deliverAlone(k, 1, null);
            }
        } finally {
            if (views != null) {
                views.close();
                views = null;
            }
            synchronized (this) { // after a retain() under way; any later one fails (see Message.retain)
                for (int k = 0; k < count; k++) {
                    if (retainedBy[k] != null) {
                        retained.deliveryEnded(retainedBy[k]); // the buffer goes back once released, too
                    }
                }
            }
            if (endpoint != null) {
                endpoints.give(endpoint);
                endpoint = null; // the batch object is reused; the endpoint is the pool's again
            }
            ended.accept(this);
        }
    }

    /**
     * Answers call {@code k} "not run" (its number with {@link CallNumbers#NOT_RUN_BIT}, no payload):
     * the endpoint refused it before the listener ran, so its caller may send it elsewhere.
     *
     * @return whether the answer was posted (else the message is dead-lettered as any failed one)
     */
    private boolean answerNotRun(int k, Throwable refusal) {
        try {
            links.reply(qpNum[k], connectionId[k], java.nio.ByteBuffer.allocate(0), immData[k] | CallNumbers.NOT_RUN_BIT);
        } catch (RuntimeException e) { // a VerbsException too
            LOG.debugf(e, "%s: answering a refused call 'not run' failed", name);
            return false;
        }
        notRun++;
        rules.answeredNotRun(connectionId[k], refusal);
        return true;
    }

    /**
     * Messages {@code from..to-1} in one batch call; on failure as {@link SrqBatchListener} says: an
     * {@link SrqBatchFailure} index splits the batch, any other failure retries it one by one.
     *
     * @return the next message to deliver
     */
    private int deliverBatch(int from, int to) {
        Throwable failure = attempt(from, to, 1);
        if (failure == null) {
            delivered();
            return to;
        }
        failures++;
        if (failure instanceof SrqBatchFailure f && f.index() >= 0 && f.index() < to - from) {
            int bad = from + f.index();
            return deliverAlone(bad, 2, f.getCause() == null ? f : f.getCause());
        }
        LOG.debugf(failure, "%s: a batch of %d failed; delivering it one message at a time", name, to - from);
        for (int k = from; k < to; k++) {
            deliverAlone(k, 1, null);
        }
        return to;
    }

    /**
     * Message {@code k} alone, attempts {@code first..maxDeliveryAttempts}, then dead-lettered.
     *
     * @param first   the first attempt's number (2 after a batch call that reported it failed)
     * @param failure that earlier attempt's failure, or null
     * @return the next message to deliver
     */
    private int deliverAlone(int k, int first, Throwable failure) {
        for (int attempt = first; ; attempt++) {
            if (failure != null && DeliveryRules.refusedBeforeRun(failure) && CallNumbers.isCall(hasImm[k], immData[k])
                    && answerNotRun(k, failure)) {
                return k + 1;
            }
            if (attempt > rules.maxAttempts() || (failure != null && abandoned.getAsBoolean())) {
                deadLettered++;
                pause.deadLettered();
                rules.deadLetter(new SrqDeadLetter(name, connectionId[k], bytes(k), hasImm[k], immData[k], attempt - 1,
                        failure, Instant.now()));
                return k + 1;
            }
            if (attempt > 1) {
                redelivered++;
            }
            failure = attempt(k, k + 1, attempt);
            if (failure == null) {
                delivered();
                return k + 1;
            }
            failures++;
            LOG.debugf(failure, "%s: delivery attempt %d of a message of connection %d failed", name, attempt,
                    connectionId[k]);
        }
    }

    /**
     * One attempt of messages {@code from..to-1}: beforeDelivery, the container transaction watched
     * (if any), one onReceive (of the batch listener, or of the message listener for one message),
     * afterDelivery, strictly paired. An endpoint that threw from before/afterDelivery is discarded.
     *
     * @return null on success; else why it failed (the listener's exception, a ResourceException of
     *         the endpoint, or the rollback)
     */
    private Throwable attempt(int from, int to, int attempt) {
        try {
            if (endpoint == null) {
                endpoint = endpoints.take();
            }
            endpoint.beforeDelivery(batchListener ? ON_BATCH : ON_RECEIVE);
        } catch (Exception e) {
            discard();
            return e;
        }
        Throwable failure = null;
        DeliveryRules.Outcome tx = null;
        Message[] ms = new Message[to - from];
        for (int k = from; k < to; k++) {
            ms[k - from] = new Message(k, attempt);
        }
        try {
            tx = rules.watch();
            if (batchListener) {
                ((SrqBatchListener) endpoint).onReceive(List.of(ms));
            } else {
                ((SrqReceiveListener) endpoint).onReceive(ms[0]);
            }
        } catch (RuntimeException | Error e) {
            failure = e;
        } finally {
            for (Message m : ms) {
                m.live = false;
            }
        }
        try {
            endpoint.afterDelivery();
        } catch (Exception e) {
            discard();
            if (failure == null) {
                failure = e;
            }
        }
        if (failure == null && tx != null && tx.rolledBack()) {
            failure = new RollbackException("the container transaction of the delivery rolled back");
        }
        return failure;
    }

    private void delivered() {
        pause.succeeded();
    }

    private void discard() {
        if (endpoint != null) {
            endpoints.discard(endpoint);
            endpoint = null;
        }
    }

    private byte[] bytes(int k) {
        if (copied[k] != null) {
            return copied[k].clone();
        }
        return buffers.buffer(buffer[k], byteLen[k]).toArray(ValueLayout.JAVA_BYTE);
    }

    @Override
    public void release() {
        // deliveries are short; deactivation waits for them
    }

    private ByteBuffer view(int k) {
        if (copied[k] != null) {
            return ByteBuffer.wrap(copied[k]).asReadOnlyBuffer();
        }
        if (views == null) {
            views = Arena.ofConfined();
        }
        return buffers.buffer(buffer[k], byteLen[k]).reinterpret(views, null).asByteBuffer().asReadOnlyBuffer();
    }

    /** One message of the batch, as its endpoint sees it; dead once its call returned. */
    private final class Message implements ReceiveCompletion {
        private final int k;
        private final int attempt;
        private volatile boolean live = true;
        private ByteBuffer view;
        private ReplyHandle reply;

        private Message(int k, int attempt) {
            this.k = k;
            this.attempt = attempt;
        }

        @Override
        public long connectionId() {
            checkLive();
            return connectionId[k];
        }

        @Override
        public int deliveryAttempt() {
            checkLive();
            return attempt;
        }

        private void checkLive() {
            if (!live) {
                throw new IllegalStateException("the receive completion is valid only during its onReceive call");
            }
        }

        @Override
        public int length() {
            checkLive();
            return byteLen[k];
        }

        @Override
        public boolean hasImmData() {
            checkLive();
            return hasImm[k];
        }

        @Override
        public int immData() {
            checkLive();
            return immData[k];
        }

        @Override
        public int qpNum() {
            checkLive();
            return qpNum[k];
        }

        @Override
        public ByteBuffer payload() {
            checkLive();
            if (view == null) {
                view = view(k);
            }
            return view.duplicate();
        }

        @Override
        public byte[] copyPayload() {
            checkLive();
            return bytes(k);
        }

        @Override
        public ReceivedMessage copy() {
            checkLive();
            return ReceivedMessage.of(bytes(k), hasImm[k], immData[k], attempt, replyHandle());
        }

        /**
         * Under the batch's lock, which its end takes too before it hands buffers back: a retain()
         * begun during the call keeps the buffer (the batch's end waits for it and leaves the buffer
         * to the retained message), one after the call throws — never both, from any thread.
         */
        @Override
        public RetainedMessage retain() {
            synchronized (Delivery.this) {
                if (!live) {
                    throw new IllegalStateException("retain() after its onReceive call returned: the message's "
                            + "receive buffer went back to the SRQ; call retain() (or copy()) during the call");
                }
                boolean first = retainedBy[k] == null && copied[k] == null;
                RetainedMessage m = retained.retain(first ? buffer[k] : -1, byteLen[k], first ? null : bytes(k),
                        hasImm[k], immData[k], attempt, connectionId[k], handle());
                if (first && m.inReceiveBuffer()) {
                    retainedBy[k] = m;
                }
                return m;
            }
        }

        @Override
        public ReplyHandle replyHandle() {
            checkLive();
            return handle();
        }

        /** @return the reply handle, made on first use (liveness checked by the caller) */
        private ReplyHandle handle() {
            if (reply == null) {
                reply = new ConnectionReply(links, qpNum[k], connectionId[k], hasImm[k] ? immData[k] : null);
            }
            return reply;
        }

        @Override
        public void reply(ByteBuffer message) {
            replyHandle().reply(message);
        }

        @Override
        public void reply(ByteBuffer message, int imm) {
            replyHandle().reply(message, imm);
        }

        @Override
        public String toString() {
            return "ReceiveCompletion[byte_len=" + byteLen[k] + ", qp_num=" + qpNum[k] + ", connection=" + connectionId[k] + ", attempt=" + attempt + (hasImm[k] ? ", imm_data=" + immData[k] : "") + (live ? "" : ", ended")
                    + "]";
        }
    }
}
