package io.rdma.srq.ra.bench;

import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqPeer;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The sending side of the cross-process message rate (issue 35, {@code it-tests/bench/fabric-message-rate.sh}):
 * an application's sends through the adapter — QPS pooled connections ({@link EchoCallPair#sender}),
 * each with its {@link SrqPeer} connected to an {@link AdapterRateReceiver} in another JVM, the messages
 * round-robin over them with {@link SrqPeer#send(ByteBuffer, int)}, then {@link SrqPeer#flush} of
 * each (every send completed: on the fabric provider, delivered into the receiver's SRQ buffers).
 * Not a test: a main.
 *
 * <p>Runs are driven by stdin: each line {@code MESSAGES} is one run — connect, send MESSAGES
 * messages of SIZE bytes, flush, close the peers and the connection and flush the pool (so the
 * receiver sees every connection go, which ends its run). EOF: exit 0. Output lines (stdout):
 * <pre>
 * SENDER run=N qps=Q messages=M seconds=T msg_per_s=R
 * </pre>
 * T from the first send to the last flush's return, R = M / T.
 *
 * <p>Usage: {@code AdapterRateSender PROVIDER DEVICE ADDRESS PORT QPS SIZE < runs}.
 */
public final class AdapterRateSender {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration FLUSH_TIMEOUT = Duration.ofSeconds(120);

    private AdapterRateSender() {
    }

    /**
     * @param args PROVIDER DEVICE ADDRESS PORT QPS SIZE
     * @throws Exception set-up or send failure (exit code 1)
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 6) {
            System.err.println("usage: AdapterRateSender PROVIDER DEVICE ADDRESS PORT QPS SIZE < 'MESSAGES' lines");
            System.exit(2);
        }
        InetSocketAddress remote = new InetSocketAddress(args[2], Integer.parseInt(args[3]));
        int qps = Integer.parseInt(args[4]);
        ByteBuffer message = ByteBuffer.allocateDirect(Integer.parseInt(args[5]));
        try (EchoCallPair sender = EchoCallPair.sender(args[0], args[1]);
             BufferedReader runs = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII))) {
            String line;
            for (int run = 0; (line = runs.readLine()) != null; run++) {
                if (line.isBlank()) {
                    continue;
                }
                long messages = Long.parseLong(line.trim());
                double seconds = run(sender, remote, qps, messages, message);
                System.out.printf(Locale.ROOT, "SENDER run=%d qps=%d messages=%d seconds=%.6f msg_per_s=%.1f%n",
                        run, qps, messages, seconds, messages / seconds);
                System.out.flush();
            }
        }
    }

    private static double run(EchoCallPair sender, InetSocketAddress remote, int qps, long messages,
                              ByteBuffer message) throws Exception {
        List<SrqConnection> connections = new ArrayList<>(qps);
        List<SrqPeer> peers = new ArrayList<>(qps);
        try {
            for (int i = 0; i < qps; i++) {    // a pooled connection keeps one peer per remote: one each
                connections.add(sender.newConnection());
                peers.add(connections.getLast().connect(remote, CONNECT_TIMEOUT));
            }
            long start = System.nanoTime();
            for (long i = 0; i < messages; i++) {
                peers.get((int) (i % qps)).send(message.clear(), (int) i);
            }
            for (SrqPeer p : peers) {
                p.flush(FLUSH_TIMEOUT);
            }
            return (System.nanoTime() - start) / 1e9;
        } finally {
            for (SrqPeer p : peers) {
                p.close();
            }
            for (SrqConnection c : connections) {
                c.close();
            }
            sender.flushPool();
        }
    }
}
