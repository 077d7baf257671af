package io.rdma.srq.ra.inbound;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.api.WcStatus;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.work.Work;
import org.jboss.logging.Logger;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;

/**
 * One received message on its way to an endpoint: a copy of the work completion's fields (never the
 * reusable WC array itself, pitfall 14) and a view of its receive buffer that dies when the call
 * returns (the view lives in an arena closed right after onReceive, so a kept ByteBuffer throws
 * instead of showing a reposted buffer). Runs beforeDelivery / onReceive / afterDelivery strictly
 * paired, then returns the buffer and the endpoint.
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
    private final int buffer;
    private final long wrId;
    private final int byteLen;
    private final boolean hasImm;
    private final int immData;
    private final int srcQp;
    private final int qpNum;
    private final MemorySegment bytes;
    private ByteBuffer view;
    private boolean live;

    Delivery(SrqActivation activation, int buffer, long wrId, int byteLen, boolean hasImm, int immData, int srcQp,
             int qpNum, MemorySegment bytes) {
        this.activation = activation;
        this.buffer = buffer;
        this.wrId = wrId;
        this.byteLen = byteLen;
        this.hasImm = hasImm;
        this.immData = immData;
        this.srcQp = srcQp;
        this.qpNum = qpNum;
        this.bytes = bytes;
    }

    @Override
    public void run() {
        EndpointPool endpoints = activation.endpoints();
        MessageEndpoint endpoint = null;
        boolean failed = false;
        try (Arena call = Arena.ofConfined()) {
            endpoint = endpoints.take();
            view = bytes.reinterpret(call, null).asByteBuffer().asReadOnlyBuffer();
            live = true;
            endpoint.beforeDelivery(ON_RECEIVE);
            try {
                ((SrqReceiveListener) endpoint).onReceive(this);
            } catch (RuntimeException | Error e) {
                failed = true;
                LOG.warnf(e, "%s: onReceive of message %d from QP %d failed", activation.srqName(), wrId, srcQp);
            } finally {
                live = false;
                endpoint.afterDelivery();
            }
        } catch (Exception e) {
            failed = true;
            LOG.warnf(e, "%s: delivery of message %d failed", activation.srqName(), wrId);
            if (endpoint != null) {
                endpoints.discard(endpoint);
                endpoint = null;
            }
        } finally {
            live = false;
            if (endpoint != null) {
                endpoints.give(endpoint);
            }
            activation.delivered(buffer, failed);
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
        return wrId;
    }

    @Override
    public WcStatus status() {
        return WcStatus.SUCCESS;
    }

    @Override
    public int byteLen() {
        return byteLen;
    }

    @Override
    public boolean hasImmData() {
        return hasImm;
    }

    @Override
    public int immData() {
        return hasImm ? immData : 0;
    }

    @Override
    public int srcQp() {
        return srcQp;
    }

    @Override
    public int qpNum() {
        return qpNum;
    }

    @Override
    public ByteBuffer payload() {
        checkLive();
        return view.duplicate();
    }

    @Override
    public byte[] copyPayload() {
        checkLive();
        byte[] copy = new byte[byteLen];
        view.duplicate().get(copy);
        return copy;
    }

    @Override
    public void reply(ByteBuffer message) throws VerbsException {
        checkLive();
        activation.reply(qpNum, message, null);
    }

    @Override
    public void reply(ByteBuffer message, int immData) throws VerbsException {
        checkLive();
        activation.reply(qpNum, message, immData);
    }

    @Override
    public String toString() {
        return "ReceiveCompletion[wr_id=" + wrId + ", byte_len=" + byteLen + ", src_qp=" + srcQp + ", qp_num=" + qpNum
                + (hasImm ? ", imm_data=" + immData : "") + "]";
    }
}
