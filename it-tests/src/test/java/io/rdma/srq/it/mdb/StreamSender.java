package io.rdma.srq.it.mdb;

import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.api.SrqPeer;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.BitSet;
import java.util.Map;
import java.util.TreeMap;

/**
 * A sender that keeps one stream going on its own thread (not a request: the server's suspend does
 * not stop it), one message at a time: send with the sequence number as imm_data, then flush — so
 * each message is either acknowledged by the receiver's QP (flush returned), in doubt (posted, but
 * its flush failed) or not sent (send threw before posting). After a failure it connects again every
 * {@value #RETRY_MS} ms, counting each failure by its error, and goes on with the next sequence
 * number (never reusing one, so a duplicate shows). {@code reconnectedAt} is the first
 * acknowledgement after the first failure.
 */
public final class StreamSender implements Runnable {
    private static final int RETRY_MS = 20;

    private final SrqConnectionFactory factory;
    private final String name;
    private final InetSocketAddress remote;
    private final byte marker;
    private final BitSet acked = new BitSet();
    private final BitSet inDoubt = new BitSet();
    private final Map<String, Integer> refusals = new TreeMap<>();
    private volatile boolean stop;
    private int next;
    private long firstFailure;
    private long reconnected;

    /**
     * @param factory the connection factory
     * @param name    the stream (tally name)
     * @param port    the MDB's listenPort
     * @param marker  the MDB's payload marker
     */
    public StreamSender(SrqConnectionFactory factory, String name, int port, byte marker) {
        this.factory = factory;
        this.name = name;
        this.remote = new InetSocketAddress(Messages.ADDRESS, port);
        this.marker = marker;
    }

    @Override
    public void run() {
        ByteBuffer buffer = ByteBuffer.allocateDirect(Messages.SIZE);
        while (!stop && next < Tally.CAPACITY) {
            try (SrqConnection c = factory.getConnection();
                 SrqPeer p = c.connect(remote, "stream-" + name, Duration.ofSeconds(2))) {
                while (!stop && next < Tally.CAPACITY) {
                    int seq;
                    synchronized (this) {
                        seq = next++;
                    }
                    p.send(Messages.encode(buffer, seq, marker), seq); // throws before posting, or posts
                    synchronized (this) {
                        inDoubt.set(seq);
                    }
                    p.flush(Duration.ofSeconds(10));
                    synchronized (this) {
                        inDoubt.clear(seq);
                        acked.set(seq);
                        if (firstFailure != 0 && reconnected == 0) {
                            reconnected = System.currentTimeMillis();
                        }
                    }
                }
            } catch (Exception e) {
                failed(e);
            }
        }
    }

    private void failed(Exception e) {
        synchronized (this) {
            if (firstFailure == 0) {
                firstFailure = System.currentTimeMillis();
            }
            refusals.merge(e.getClass().getSimpleName() + ": " + e.getMessage(), 1, Integer::sum);
        }
        try {
            Thread.sleep(RETRY_MS);
        } catch (InterruptedException ie) {
            stop = true;
        }
    }

    /** Ends the loop after the current message. */
    public void stop() {
        stop = true;
    }

    /** @return messages acknowledged so far */
    public synchronized int acked() {
        return acked.cardinality();
    }

    /**
     * Compares what was acknowledged with what the MDB received: {@code acked} messages each delivered
     * exactly once ({@code lost} counts the ones never delivered), messages in doubt delivered at most
     * once, nothing delivered that was never sent.
     *
     * @param tally the MDB's tally
     * @return {@code stream=… acked=… inDoubt=… delivered=… lost=… duplicated=… foreign=… problems=…
     *         failedAt=… reconnectedAt=… pauseFrom=… pauseMs=… errors={…}}, times in wall-clock ms
     */
    public synchronized String report(Tally tally) {
        int lost = 0;
        int duplicated = 0;
        int foreign = 0;
        for (int seq = 0; seq < Tally.CAPACITY; seq++) {
            int n = tally.count(seq);
            if (acked.get(seq) && n == 0) {
                lost++;
            }
            if (n > 1) {
                duplicated++;
            }
            if (n > 0 && !acked.get(seq) && !inDoubt.get(seq)) {
                foreign++;
            }
        }
        Tally.Summary s = tally.summary(0);
        return "stream=" + name + " acked=" + acked.cardinality() + " inDoubt=" + inDoubt.cardinality()
                + " delivered=" + tally.total() + " lost=" + lost + " duplicated=" + duplicated + " foreign=" + foreign
                + " problems=" + s.problems() + " failedAt=" + firstFailure + " reconnectedAt=" + reconnected
                + " " + Pauses.longest(name) + " errors=" + refusals;
    }
}
