package io.rdma.srq.ra.inbound;

import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.testing.SoftActivationTest;
import io.rdma.srq.ra.testing.SoftSender;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Peers that connect at once to a listener, each send numbered messages (peer p sends
 * {@code p × messages} up to {@code (p + 1) × messages − 1}, so every message is told apart), wait
 * for their send completions and disconnect. A peer whose connect is refused (the listener went
 * away) acknowledges nothing.
 */
final class PeerStorm {
    private PeerStorm() {
    }

    /**
     * @param to       the listener
     * @param peers    peers connecting at once
     * @param messages messages per peer
     * @return messages acknowledged to the peers (send completions with SUCCESS), all peers gone
     * @throws Exception when a peer fails otherwise, or does not end within {@link SoftActivationTest#PATIENCE}
     */
    static int run(InetSocketAddress to, int peers, int messages) throws Exception {
        return run(to, peers, messages, 0);
    }

    /**
     * As {@link #run(InetSocketAddress, int, int)}, numbering from {@code firstSeq}.
     *
     * @param firstSeq the first peer's first message number
     */
    static int run(InetSocketAddress to, int peers, int messages, long firstSeq) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(peers);
        try {
            List<Future<Integer>> sent = new ArrayList<>();
            for (int p = 0; p < peers; p++) {
                long first = firstSeq + (long) p * messages;
                sent.add(pool.submit(() -> peer(to, first, messages)));
            }
            int acknowledged = 0;
            for (Future<Integer> f : sent) {
                acknowledged += f.get(SoftActivationTest.PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            }
            return acknowledged;
        } finally {
            pool.shutdownNow();
        }
    }

    private static int peer(InetSocketAddress to, long first, int messages) throws VerbsException {
        SoftSender s;
        try {
            s = new SoftSender(to, 64);
        } catch (VerbsException refused) {
            return 0;
        }
        try (s) {
            for (long seq = first; seq < first + messages; seq++) {
                s.send(seq, 64, null);
            }
            s.drain(SoftActivationTest.PATIENCE);
            return s.acknowledged;
        }
    }
}
