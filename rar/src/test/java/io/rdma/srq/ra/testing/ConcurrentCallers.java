package io.rdma.srq.ra.testing;

import io.rdma.srq.api.SrqMessage;
import io.rdma.srq.api.SrqPeer;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Threads that call peers of an echoing activation, each call's 6-byte request (caller, sequence)
 * checked against its reply, caller {@code t}'s call {@code i} on peer {@code (t + i) % peers}:
 * every caller on every peer.
 *
 * @param wrong   calls answered with another call's reply (or a wrong length)
 * @param failure the first exception a caller threw, or null
 */
public record ConcurrentCallers(long wrong, Throwable failure) {

    /**
     * Runs the callers to the end.
     *
     * @param peers     the peers
     * @param threads   callers, one platform thread each
     * @param perThread calls each makes
     * @param timeout   each call's timeout
     * @return what went wrong, if anything
     * @throws InterruptedException while joining the callers
     */
    public static ConcurrentCallers run(List<SrqPeer> peers, int threads, long perThread, Duration timeout)
            throws InterruptedException {
        AtomicLong wrong = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> callers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int caller = t;
            callers.add(Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i < perThread; i++) {
                        SrqPeer p = peers.get((caller + i) % peers.size());
                        // 6 bytes: below the 8 the test endpoint records as a sequence, so a long run keeps no per-call state
                        ByteBuffer req = ByteBuffer.allocate(6).putShort((short) caller).putInt(i).flip();
                        SrqMessage r = p.call(req, timeout);
                        if (r.length() != 6 || r.payload().getShort(0) != caller || r.payload().getInt(2) != i) {
                            wrong.incrementAndGet();
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        for (Thread t : callers) {
            t.join();
        }
        return new ConcurrentCallers(wrong.get(), failure.get());
    }
}
