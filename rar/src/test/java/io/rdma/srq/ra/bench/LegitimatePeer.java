package io.rdma.srq.ra.bench;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.support.admission.AuthKey;
import io.rdma.srq.ra.support.admission.PeerToken;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.ConnectRejectedException;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.WorkCompletionArray;
import org.HdrHistogram.Histogram;

import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.EnumSet;

/**
 * The peer a flood must not keep out: on its own soft context (device soft_rxe0, 10.77.1.1), each
 * {@link #connectOnce} makes an RC QP, connects it with a fresh token (rdma_connect(3) until
 * ESTABLISHED; that span, System.nanoTime, goes into the histogram when the request is accepted),
 * sends {@code messages} SENDs of {@value #MESSAGE_BYTES} B, waits for their send completions,
 * disconnects and destroys the QP. The token it presented last is published for a replaying flooder
 * ({@link #lastUsedToken()}) only once its own connect has been answered. One thread's, but for
 * {@link #lastUsedToken()}.
 */
final class LegitimatePeer implements AutoCloseable {
    /** The device the peer connects from. */
    static final String DEVICE = "soft_rxe0";
    static final int MESSAGE_BYTES = 64;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(10);

    private final InetSocketAddress to;
    private final AuthKey key;
    private final int messages;
    private final Context ctx;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final MemoryRegion mr;
    private final WorkCompletionArray wcs;
    private volatile byte[] lastUsedToken;
    private long acknowledged;
    private long sendErrors;

    /**
     * @param to       the activation's listener
     * @param key      the key its tokens are made with
     * @param messages SENDs per connection, 1..1024
     * @throws VerbsException when the soft context or its objects cannot be made
     */
    LegitimatePeer(InetSocketAddress to, AuthKey key, int messages) throws VerbsException {
        if (messages < 1 || messages > 1024) {
            throw new IllegalArgumentException("messages per connection must be 1..1024, got " + messages);
        }
        this.to = to;
        this.key = key;
        this.messages = messages;
        this.ctx = Verbs.provider(Verbs.SOFT).open(DEVICE);
        this.wcs = new WorkCompletionArray(messages);
        try {
            pd = ctx.allocPd();
            cq = ctx.createCq(messages, null);
            mr = pd.allocateRegistered((long) MESSAGE_BYTES * messages, EnumSet.of(AccessFlag.LOCAL_WRITE));
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * One connection: connect, send, wait for the send completions, disconnect.
     *
     * @param latency  where an accepted connect's latency (ns) is recorded
     * @param outcomes where the connect's outcome is counted
     * @throws VerbsException when the peer's own objects fail (a connect that fails is counted instead)
     */
    void connectOnce(Histogram latency, ConnectOutcomes outcomes) throws VerbsException {
        byte[] token = PeerToken.create(key, to, System.currentTimeMillis());
        QueuePair qp = pd.createQp(QpInitAttributes.builder(QpInitAttributes.QpType.RC).cq(cq)
                .maxSendWr(messages).maxRecvWr(1).maxRecvSge(1).build());
        try {
            long start = System.nanoTime();
            CmConnection c;
            try {
                c = ctx.connect(qp, to, CONNECT_TIMEOUT, token);
            } catch (ConnectRejectedException e) {
                outcomes.rejected(e);
                return;
            } catch (VerbsException e) {
                outcomes.count(ConnectOutcomes.FAILED);
                return;
            } finally {
                lastUsedToken = token;
            }
            latency.recordValue(System.nanoTime() - start);
            outcomes.count(ConnectOutcomes.ACCEPTED);
            try {
                send(qp);
            } finally {
                c.close();
            }
        } finally {
            qp.close();
        }
    }

    private void send(QueuePair qp) throws VerbsException {
        for (int i = 0; i < messages; i++) {
            long offset = (long) i * MESSAGE_BYTES;
            mr.segment().set(ValueLayout.JAVA_LONG_UNALIGNED, offset, acknowledged + sendErrors + i);
            qp.postSend(i, mr, offset, MESSAGE_BYTES, null);
        }
        long deadline = System.nanoTime() + SEND_TIMEOUT.toNanos();
        int done = 0;
        while (done < messages) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException((messages - done) + " of " + messages
                        + " sends without a completion after " + SEND_TIMEOUT.toSeconds() + " s");
            }
            int n = cq.poll(wcs);
            for (int i = 0; i < n; i++) {
                if (wcs.isSuccess(i)) {
                    acknowledged++;
                } else {
                    sendErrors++;
                }
            }
            done += n;
            if (n == 0) {
                Thread.onSpinWait();
            }
        }
    }

    /** {@return the token of the last connect that was answered (accepted, rejected or timed out), or null} */
    byte[] lastUsedToken() {
        return lastUsedToken;
    }

    /** {@return SENDs the activation acknowledged (send completion SUCCESS)} */
    long acknowledged() {
        return acknowledged;
    }

    /** {@return SENDs that completed with an error status} */
    long sendErrors() {
        return sendErrors;
    }

    /** Closes the peer's context and everything on it. */
    @Override
    public void close() throws VerbsException {
        wcs.close();
        ctx.close();
    }
}
