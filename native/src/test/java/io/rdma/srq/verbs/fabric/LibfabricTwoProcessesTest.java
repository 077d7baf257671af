package io.rdma.srq.verbs.fabric;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rdma.srq.api.VerbsException;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Sender and receiver in different processes, as two servers will be: two sender JVMs connect to
 * this JVM's tcp listener and send into its one shared receive context. While the srx has no
 * buffer posted their messages wait — the senders' sends complete, nothing errs, nothing is
 * dropped — and once buffers are posted every message arrives, each sender's in its order. A
 * sender killed with SIGKILL (its endpoint never closed) is an FI_SHUTDOWN for its endpoint only
 * (driver note 27).
 */
class LibfabricTwoProcessesTest {
    private static final int MESSAGES = 100;
    private static final int SIZE = 64;
    /** Two JVMs start on a loaded 2-core machine, or under the rxe lab's emulation: up to two minutes. */
    private static final long PROCESS_START_NANOS = 120_000_000_000L;

    private FabricTestKit kit;
    private final List<Process> senders = new ArrayList<>();

    @BeforeEach
    void libfabricWithTcp() {
        assumeTrue(FabricLibrary.load(), "libfabric.so.1 is not installed (Debian package libfabric1)");
        kit = new FabricTestKit();
        assumeTrue(kit.tcpInfo("0", 0) != null, "libfabric has no tcp provider with MSG endpoints here");
    }

    @AfterEach
    void stop() {
        senders.forEach(Process::destroyForcibly);
        if (kit != null) {
            kit.close();
        }
    }

    /** Starts a sender JVM; its stdout lines are collected in {@code lines}. */
    private Process sender(int port, String hello, int fill, List<String> lines) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                classPath(), FabricSenderProcess.class.getName(), String.valueOf(port),
                hello, String.valueOf(fill), String.valueOf(MESSAGES), String.valueOf(SIZE))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        senders.add(p);
        Thread.ofVirtual().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.US_ASCII))) {
                for (String line; (line = r.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException ended) {
                // the process was killed
            }
        });
        return p;
    }

    /**
     * The sender's class path: where its own class, the binding and the api come from (the JVM's
     * java.class.path is surefire's booter jar here but the console launcher's jar in the rxe lab).
     */
    private static String classPath() {
        List<String> parts = new ArrayList<>();
        for (Class<?> c : List.of(FabricSenderProcess.class, FabricLibrary.class, VerbsException.class)) {
            try {
                String part = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
                if (!parts.contains(part)) {
                    parts.add(part);
                }
            } catch (URISyntaxException e) {
                throw new IllegalStateException(e);
            }
        }
        return String.join(File.pathSeparator, parts);
    }

    @Test
    void twoSenderProcessesWaitForReceivesLoseNothingAndAKilledOneIsAShutdown() throws Exception {
        FabricTestKit.Listener listener = kit.new Listener(2 * MESSAGES, SIZE);
        List<String> a = new CopyOnWriteArrayList<>();
        List<String> b = new CopyOnWriteArrayList<>();
        Process senderA = sender(listener.port, "hello-a", 1, a);
        sender(listener.port, "hello-b", 2, b);
        FabricTestKit.await(() -> {
            listener.events();
            assertTrue(listener.receive().isEmpty(), "no buffer is posted: nothing can be received");
            return a.contains("SENT " + MESSAGES) && b.contains("SENT " + MESSAGES);
        }, "both senders connected and their sends completed with the srx empty", PROCESS_START_NANOS);
        assertEquals(2, listener.connected);
        assertTrue(a.contains("CONNECTED welcome-hello-a") && b.contains("CONNECTED welcome-hello-b"), a + " " + b);

        for (int i = 0; i < 2 * MESSAGES; i++) {
            listener.post(i);
        }
        List<Long> fromA = new ArrayList<>();
        List<Long> fromB = new ArrayList<>();
        FabricTestKit.await(() -> {
            for (FabricTestKit.Received r : listener.receive()) {
                assertEquals(r.cqData() >>> 32, r.first(), "the payload and the CQ data are the same sender's");
                (r.first() == 1 ? fromA : fromB).add(r.cqData() & 0xFFFF_FFFFL);
            }
            return fromA.size() + fromB.size() == 2 * MESSAGES;
        }, "every waiting message once buffers were posted");
        List<Long> inOrder = new ArrayList<>();
        for (long i = 0; i < MESSAGES; i++) {
            inOrder.add(i);
        }
        assertEquals(inOrder, fromA, "sender a's messages, each once, in its order");
        assertEquals(inOrder, fromB, "sender b's messages, each once, in its order");

        senderA.destroyForcibly(); // SIGKILL: its endpoint is never closed
        FabricTestKit.await(() -> {
            listener.receive();
            listener.events();
            return !listener.shutdowns.isEmpty();
        }, "FI_SHUTDOWN of the killed sender's endpoint");
        assertEquals(List.of("hello-a"), listener.shutdowns, "the killed sender's endpoint only");
    }
}
