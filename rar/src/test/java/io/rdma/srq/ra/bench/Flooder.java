package io.rdma.srq.ra.bench;

import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.support.admission.AuthKey;
import io.rdma.srq.ra.support.admission.PeerToken;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.ConnectRejectedException;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.soft.SoftHalfOpenPeer;
import io.rdma.srq.verbs.soft.SoftProvider;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * One flooding thread: {@code n} connect requests of one {@link Kind}, back to back, from device
 * soft_mlx5_0 (10.77.1.2), each answered (or timed out) before the next; returns how they ended.
 * Nothing is sent on a connection that gets in.
 */
final class Flooder implements Callable<ConnectOutcomes> {
    /** The device flood requests come from. */
    static final String DEVICE = "soft_mlx5_0";
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    /** What a flood request carries, and what its sender does after an accept. */
    enum Kind {
        /**
         * Private data that is no token of the key: every other request 56 random bytes (a token's
         * magic almost never: NO_TOKEN), the others a well-formed token made with another key
         * (its MAC is computed and compared: BAD_TOKEN).
         */
        GARBAGE,
        /** The legitimate peer's last token, already presented by it: REPLAYED. */
        REPLAYED,
        /**
         * A fresh valid token; when accepted the sender never sends the RTU and vanishes (its context
         * closed at once, as a host that died after the REP): the activation holds the connection
         * until it reaps it half-open.
         */
        HALF_OPEN
    }

    private final Kind kind;
    private final int n;
    private final InetSocketAddress to;
    private final AuthKey key;
    private final Supplier<byte[]> replayed;
    private final Random random;

    /**
     * @param kind     what the requests carry
     * @param n        requests to make
     * @param to       the activation's listener
     * @param key      the activation's key (HALF_OPEN's fresh tokens)
     * @param replayed the token to replay (REPLAYED), never null once the flood starts
     * @param seed     of the random private data (GARBAGE)
     */
    Flooder(Kind kind, int n, InetSocketAddress to, AuthKey key, Supplier<byte[]> replayed, long seed) {
        this.kind = kind;
        this.n = n;
        this.to = to;
        this.key = key;
        this.replayed = replayed;
        this.random = new Random(seed);
    }

    @Override
    public ConnectOutcomes call() throws VerbsException {
        return kind == Kind.HALF_OPEN ? halfOpen() : rejectedFlood();
    }

    /** GARBAGE and REPLAYED: requests that should all be rejected, made with one QP (a rejected one stays in RESET). */
    private ConnectOutcomes rejectedFlood() throws VerbsException {
        ConnectOutcomes out = new ConnectOutcomes();
        AuthKey otherKey = new AuthKey("forged", bytes(AuthKey.MIN_BYTES));
        try (Context ctx = Verbs.provider(Verbs.SOFT).open(DEVICE)) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(1, null);
            QueuePair qp = null;
            for (int i = 0; i < n; i++) {
                if (qp == null) {
                    qp = pd.createQp(QpInitAttributes.builder(QpInitAttributes.QpType.RC).cq(cq)
                            .maxSendWr(1).maxRecvWr(1).maxRecvSge(1).build());
                }
                byte[] data = kind == Kind.REPLAYED ? replayed.get()
                        : i % 2 == 0 ? bytes(56) : PeerToken.create(otherKey, to, System.currentTimeMillis());
                try {
                    ctx.connect(qp, to, TIMEOUT, data).close();
                    out.count(ConnectOutcomes.ACCEPTED);
                    qp.close(); // connected: no longer in RESET
                    qp = null;
                } catch (ConnectRejectedException e) {
                    out.rejected(e);
                } catch (VerbsException e) {
                    out.count(ConnectOutcomes.FAILED);
                }
            }
        }
        return out;
    }

    /** HALF_OPEN: each request from a context of its own, closed as soon as the REP (or a reject) came. */
    private ConnectOutcomes halfOpen() {
        ConnectOutcomes out = new ConnectOutcomes();
        for (int i = 0; i < n; i++) {
            try (SoftHalfOpenPeer vanishing = SoftProvider.connectWithoutRtu(DEVICE, to, TIMEOUT,
                    PeerToken.create(key, to, System.currentTimeMillis()))) {
                out.accepted(System.nanoTime());
            } catch (ConnectRejectedException e) {
                out.rejected(e);
            } catch (VerbsException e) {
                out.count(ConnectOutcomes.FAILED);
            }
        }
        return out;
    }

    private byte[] bytes(int length) {
        byte[] b = new byte[length];
        random.nextBytes(b);
        return b;
    }
}
