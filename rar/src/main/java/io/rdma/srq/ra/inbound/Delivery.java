package io.rdma.srq.ra.inbound;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.api.WcStatus;
import io.rdma.srq.verbs.WorkCompletionArray;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.work.Work;
import org.jboss.logging.Logger;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;

/**
 * A batch of received messages (one poll of the CQ, up to its capacity) on its way to ONE endpoint:
 * copies of the work completions' fields (never the reusable WC array itself, pitfall 14), delivered
 * one by one, each with beforeDelivery / onReceive / afterDelivery strictly paired. One Work and one
 * endpoint per batch, not per message, is what keeps the container's hand-off off the per-message
 * cost. The batch then goes back to the poller, which reposts its buffers and reuses the object.
 *
 * <p>{@link #payload()} views live in an arena closed when the batch ends, before its buffers are
 * reposted: a ByteBuffer kept past its call throws from then on instead of showing a reposted
 * buffer.
 */
final class Delivery implements Work, ReceiveCompletion {
    private static final Logger LOG = Logger.getLogger(Delivery.class);
    static final Method ON_RECEIVE;

    static {
        try {
            ON_RECEIVE = SrqReceiveListener.class.getMethod("onReceive", ReceiveCompletion.class);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final SrqActivation activation;
    private final MemorySegment slab;
    private final int bufferSize;
    private final int[] buffer;
    private final long[] wrId;
    private final int[] byteLen;
    private final boolean[] hasImm;
    private final int[] immData;
    private final int[] srcQp;
    private final int[] qpNum;
    private int count;
    private int failures;
    private int current;
    private boolean live;
    private Arena views;
    private ByteBuffer view;

    /**
     * @param activation the activation delivering
     * @param slab       its receive buffers
     * @param bufferSize bytes per buffer
     * @param capacity   messages per batch at most
     */
    Delivery(SrqActivation activation, MemorySegment slab, int bufferSize, int capacity) {
        this.activation = activation;
        this.slab = slab;
        this.bufferSize = bufferSize;
        this.buffer = new int[capacity];
        this.wrId = new long[capacity];
        this.byteLen = new int[capacity];
        this.hasImm = new boolean[capacity];
        this.immData = new int[capacity];
        this.srcQp = new int[capacity];
        this.qpNum = new int[capacity];
    }

    /** Adds the successful completion {@code i} of {@code wcs}; its wr_id is the buffer index. */
    void add(WorkCompletionArray wcs, int i) {
        int k = count++;
        wrId[k] = wcs.wrId(i);
        buffer[k] = (int) wrId[k];
        byteLen[k] = wcs.byteLen(i);
        hasImm[k] = wcs.hasImm(i);
        immData[k] = hasImm[k] ? wcs.immData(i) : 0;
        srcQp[k] = wcs.srcQp(i);
        qpNum[k] = wcs.qpNum(i);
    }

    int count() {
        return count;
    }

    int failures() {
        return failures;
    }

    int buffer(int k) {
        return buffer[k];
    }

    /** Empties the batch for reuse (poller only, after it came back). */
    void clear() {
        count = 0;
        failures = 0;
    }

    @Override
    public void run() {
        EndpointPool endpoints = activation.endpoints();
        MessageEndpoint endpoint = null;
        try {
            for (current = 0; current < count; current++) {
                view = null;
                try {
                    if (endpoint == null) {
                        endpoint = endpoints.take();
                    }
                    deliver(endpoint);
                } catch (Exception e) {
                    failures++;
                    LOG.warnf(e, "%s: delivery of message %d failed", activation.srqName(), wrId[current]);
                    if (endpoint != null) {
                        endpoints.discard(endpoint);
                        endpoint = null;
                    }
                }
            }
        } finally {
            live = false;
            view = null;
            if (views != null) {
                views.close();
                views = null;
            }
            if (endpoint != null) {
                endpoints.give(endpoint);
            }
            activation.delivered(this);
        }
    }

    private void deliver(MessageEndpoint endpoint) throws Exception {
        endpoint.beforeDelivery(ON_RECEIVE);
        live = true;
        try {
            ((SrqReceiveListener) endpoint).onReceive(this);
        } catch (RuntimeException | Error e) {
            failures++;
            LOG.warnf(e, "%s: onReceive of message %d from QP %d failed", activation.srqName(), wrId[current],
                    qpNum[current]);
        } finally {
            live = false;
            endpoint.afterDelivery();
        }
    }

    @Override
    public void release() {
        // deliveries are short; deactivation waits for them
    }

    private void checkLive() {
        if (!live) {
            throw new IllegalStateException("the receive completion is valid only during onReceive");
        }
    }

    @Override
    public long wrId() {
        return wrId[current];
    }

    @Override
    public WcStatus status() {
        return WcStatus.SUCCESS;
    }

    @Override
    public int byteLen() {
        return byteLen[current];
    }

    @Override
    public boolean hasImmData() {
        return hasImm[current];
    }

    @Override
    public int immData() {
        return immData[current];
    }

    @Override
    public int srcQp() {
        return srcQp[current];
    }

    @Override
    public int qpNum() {
        return qpNum[current];
    }

    @Override
    public ByteBuffer payload() {
        checkLive();
        if (view == null) {
            if (views == null) {
                views = Arena.ofConfined();
            }
            view = slab.asSlice((long) buffer[current] * bufferSize, byteLen[current]).reinterpret(views, null)
                    .asByteBuffer().asReadOnlyBuffer();
        }
        return view.duplicate();
    }

    @Override
    public byte[] copyPayload() {
        checkLive();
        return slab.asSlice((long) buffer[current] * bufferSize, byteLen[current]).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
    }

    @Override
    public void reply(ByteBuffer message) throws VerbsException {
        checkLive();
        activation.reply(qpNum[current], message, null);
    }

    @Override
    public void reply(ByteBuffer message, int imm) throws VerbsException {
        checkLive();
        activation.reply(qpNum[current], message, imm);
    }

    @Override
    public String toString() {
        if (current >= count) {
            return "ReceiveCompletion[ended]";
        }
        return "ReceiveCompletion[wr_id=" + wrId[current] + ", byte_len=" + byteLen[current] + ", src_qp="
                + srcQp[current] + ", qp_num=" + qpNum[current] + (hasImm[current] ? ", imm_data=" + immData[current] : "")
                + "]";
    }
}
