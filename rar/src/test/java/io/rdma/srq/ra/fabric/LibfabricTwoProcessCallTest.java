package io.rdma.srq.ra.fabric;

import io.rdma.srq.api.SrqCallException;
import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqMessage;
import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.ra.bench.EchoResponder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The adapter across two processes on the fabric provider: this JVM's pooled peer calls an
 * activation in a child JVM ({@link EchoResponder}: provider fabric, device tcp, 127.0.0.1). Every
 * call gets its own reply; when the child is killed (SIGKILL) mid-stream, every call is either
 * answered with its own reply or fails with an {@link SrqCallException} within its own timeout —
 * succeeded + failed = issued, never another call's reply — and a call after that fails at once.
 */
class LibfabricTwoProcessCallTest extends LibfabricAdapterTest {
    private static final Duration T = Duration.ofSeconds(5); // the calls' timeout
    private ChildJvm responder;

    @AfterEach
    void stopResponder() {
        if (responder != null) {
            responder.close();
        }
    }

    private InetSocketAddress launch() throws Exception {
        int port = ChildJvm.freePort();
        responder = ChildJvm.start(EchoResponder.class, "fabric", "tcp", "127.0.0.1", String.valueOf(port));
        String line = responder.nextLine(Duration.ofSeconds(60));
        assertTrue(line != null && line.startsWith("LISTENING"), "the responder JVM says it listens: " + line);
        return new InetSocketAddress("127.0.0.1", port);
    }

    @Test
    void callsToAnotherProcessGetTheirOwnRepliesAndAKilledPeerFailsEveryOpenCallWithinItsTimeout() throws Exception {
        InetSocketAddress at = launch();
        AtomicLong ok = new AtomicLong();
        AtomicLong wrong = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        AtomicLong issued = new AtomicLong();
        AtomicLong slowestFailureNanos = new AtomicLong();
        AtomicReference<Throwable> unexpected = new AtomicReference<>();
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer peer = c.connect(at, T);
            Thread caller = Thread.ofPlatform().start(() -> {
                for (int i = 0; failed.get() == 0 && i < 1_000_000; i++) {
                    ByteBuffer req = ByteBuffer.allocate(8).putLong(i).flip();
                    issued.incrementAndGet();
                    long t0 = System.nanoTime();
                    try {
                        SrqMessage r = peer.call(req, T);
                        if (r.length() == 8 && r.payload().getLong(0) == i) {
                            ok.incrementAndGet();
                        } else {
                            wrong.incrementAndGet();
                        }
                    } catch (SrqCallException e) {
                        failed.incrementAndGet();
                        slowestFailureNanos.accumulateAndGet(System.nanoTime() - t0, Math::max);
                    } catch (Throwable e) {
                        unexpected.compareAndSet(null, e);
                        return;
                    }
                }
            });
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (ok.get() < 2_000 && System.nanoTime() < deadline && caller.isAlive()) {
                Thread.sleep(5);
            }
            assertTrue(ok.get() >= 2_000, "2,000 calls answered before the kill, got " + ok.get() + " " + unexpected.get());
            responder.kill(); // SIGKILL: no FIN from the application, the kernel closes its sockets
            caller.join(Duration.ofSeconds(30));
            System.out.printf("two processes: %d calls answered, %d failed after SIGKILL in %d ms (call timeout %s)%n",
                    ok.get(), failed.get(), slowestFailureNanos.get() / 1_000_000, T);
            assertNull(unexpected.get());
            assertEquals(0, wrong.get(), "no call was answered with another call's reply");
            assertEquals(issued.get(), ok.get() + failed.get(), "every call issued succeeded or failed");
            assertEquals(1, failed.get(), "the caller stops at its first failure");
            assertTrue(slowestFailureNanos.get() <= T.toNanos() + Duration.ofSeconds(1).toNanos(),
                    "the failure came within the call's own timeout: " + slowestFailureNanos.get() / 1_000_000 + " ms");
            SrqCallException after = assertThrows(SrqCallException.class,
                    () -> peer.call(ByteBuffer.allocate(8).putLong(-1).flip(), T));
            assertInstanceOf(SrqCallException.class, after);
        }
    }
}
