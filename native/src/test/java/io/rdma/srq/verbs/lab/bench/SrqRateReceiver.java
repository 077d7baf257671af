package io.rdma.srq.verbs.lab.bench;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.WorkCompletionArray;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The Java receiver of the lab message-rate benchmark (issue #9): the FFM verbs layer alone, the
 * same loop as the C reference receiver {@code it-tests/lab/bench/c/srq_recv.c}. Not a test: a
 * main run by {@code it-tests/lab/bench/message-rate.sh} inside the rxe lab.
 *
 * <p>Listens on rdma_cm, accepts every connection onto an RC QP whose receives come from ONE SRQ of
 * {@code depth} receive WRs (each a {@code buffer}-byte slice of one registered slab), busy-polls
 * the one CQ in batches of 32 and reposts each batch's buffers as one chain (wr_id = buffer index).
 * rdma_cm events are taken without waiting every 1024 loop iterations with an empty CQ.
 * A run is one set of connections: it ends when every connection accepted since the previous run
 * has disconnected. Output lines (stdout):
 * <pre>
 * LISTENING port=P
 * RECEIVER impl=java run=N qps=Q messages=M errors=E seconds=T msg_per_s=R
 * </pre>
 * T in seconds from the first to the last receive completion polled, R = (M − 1) / T messages/s.
 *
 * <p>Usage: {@code SrqRateReceiver DEVICE ADDRESS PORT BUFFER DEPTH RUNS} — BUFFER bytes per
 * receive buffer, DEPTH receive WRs in the SRQ, RUNS runs before exiting 0.
 */
public final class SrqRateReceiver {
    private static final int BATCH = 32;

    private SrqRateReceiver() {
    }

    /**
     * @param args DEVICE ADDRESS PORT BUFFER DEPTH RUNS
     * @throws Exception any verbs or rdma_cm failure (exit code 1)
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 6) {
            System.err.println("usage: SrqRateReceiver DEVICE ADDRESS PORT BUFFER DEPTH RUNS");
            System.exit(2);
        }
        String device = args[0];
        InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(args[1]), Integer.parseInt(args[2]));
        int buffer = Integer.parseInt(args[3]);
        int depth = Integer.parseInt(args[4]);
        int runs = Integer.parseInt(args[5]);
        try (Context ctx = Verbs.provider(Verbs.IBVERBS).open(device)) {
            serve(ctx, address, buffer, depth, runs);
        }
    }

    private static void serve(Context ctx, InetSocketAddress address, int buffer, int depth, int runs)
            throws VerbsException {
        try (CompletionQueue cq = ctx.createCq(depth + BATCH, null);
             ProtectionDomain pd = ctx.allocPd();   // closed first: its QPs, SRQ and MR
             WorkCompletionArray wcs = new WorkCompletionArray(BATCH);
             ReceiveWorkRequests wrs = new ReceiveWorkRequests(BATCH)) {
            SharedReceiveQueue srq = pd.createSrq(new SrqAttributes(depth, 1, 0));
            MemoryRegion slab = pd.allocateRegistered((long) buffer * depth, EnumSet.of(AccessFlag.LOCAL_WRITE));
            long base = slab.address();
            int lkey = slab.lkey();
            for (int i = 0; i < depth; ) {   // fill the SRQ in chains of BATCH
                int k = 0;
                for (; k < BATCH && i < depth; k++, i++) {
                    wrs.set(k, i, base + (long) i * buffer, buffer, lkey);
                }
                srq.postReceive(wrs, k);
            }
            try (CmListener listener = ctx.listen(address, 128)) {
                System.out.println("LISTENING port=" + listener.localAddress().getPort());
                System.out.flush();
                Map<Integer, CmConnection> live = new HashMap<>();
                long messages = 0;
                long errors = 0;
                long first = 0;
                long last = 0;
                int accepted = 0;
                int run = 0;
                for (long iter = 0; run < runs; iter++) {
                    int n = cq.poll(wcs);
                    if (n > 0) {
                        for (int j = 0; j < n; j++) {
                            if (wcs.isSuccess(j)) {
                                messages++;
                            } else {
                                errors++;
                            }
                            long b = wcs.wrId(j);   // the buffer goes back either way
                            wrs.set(j, b, base + b * buffer, buffer, lkey);
                        }
                        srq.postReceive(wrs, n);
                        last = System.nanoTime();
                        if (first == 0) {
                            first = last;
                        }
                        continue;
                    }
                    if ((iter & 1023) != 0) {
                        continue;
                    }
                    Optional<CmEvent> event = listener.nextEvent(Duration.ZERO);
                    if (event.isEmpty()) {
                        continue;
                    }
                    CmEvent e = event.get();
                    if (e.type() == CmEventType.CONNECT_REQUEST) {
                        QueuePair qp = pd.createQp(QpInitAttributes.rcOnSrq(cq, srq, 1));
                        live.put(qp.qpNum(), e.request().accept(qp));
                        accepted++;
                    } else if (e.type() == CmEventType.DISCONNECTED && e.connection() != null) {
                        QueuePair qp = e.connection().qp();
                        if (live.remove(qp.qpNum()) != null) {
                            e.connection().close();
                            qp.close();
                        }
                        if (live.isEmpty() && accepted > 0) {
                            double seconds = (last - first) / 1e9;
                            System.out.printf(Locale.ROOT,
                                    "RECEIVER impl=java run=%d qps=%d messages=%d errors=%d seconds=%.6f msg_per_s=%.1f%n",
                                    run, accepted, messages, errors, seconds, seconds > 0 ? (messages - 1) / seconds : 0.0);
                            System.out.flush();
                            messages = 0;
                            errors = 0;
                            first = 0;
                            last = 0;
                            accepted = 0;
                            run++;
                        }
                    }
                }
            }
        }
    }
}
