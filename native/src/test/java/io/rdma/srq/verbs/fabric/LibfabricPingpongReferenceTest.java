package io.rdma.srq.verbs.fabric;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The reference the fabric provider is measured against, run in every build: libfabric's own
 * {@code fi_pingpong} (libfabric-bin) between two processes on 127.0.0.1 over the tcp provider's
 * MSG endpoints — the same library and provider the adapter uses — with data-integrity checks
 * ({@code -c}), 1,000 transfers of 64 bytes. It must end with its result line; the µs per transfer
 * it prints is written to the build log (the benchmarks' figures are in it-tests/bench/RESULTS.md,
 * fabric-round-trip.sh). Skipped, with the reason, where fi_pingpong is not installed.
 */
class LibfabricPingpongReferenceTest {
    private static final Path FI_PINGPONG = Path.of("/usr/bin/fi_pingpong");

    @Test
    void fiPingpongRunsBetweenTwoProcessesOverTcpMsgEndpoints() throws Exception {
        assumeTrue(Files.isExecutable(FI_PINGPONG), "fi_pingpong is not installed (Debian: libfabric-bin)");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        List<String> common = List.of("-p", "tcp", "-e", "msg", "-I", "1000", "-S", "64", "-c");
        Process server = start(common, "-B", String.valueOf(port));
        try {
            Process client = null;
            String out = "";
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) { // the server's control socket may not listen yet
                client = start(common, "-P", String.valueOf(port), "127.0.0.1");
                assertTrue(client.waitFor(60, TimeUnit.SECONDS), "fi_pingpong's client ends");
                out = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (client.exitValue() == 0) {
                    break;
                }
                Thread.sleep(200);
            }
            assertEquals(0, client.exitValue(), "fi_pingpong client: " + out);
            assertTrue(server.waitFor(30, TimeUnit.SECONDS), "fi_pingpong's server ends");
            assertEquals(0, server.exitValue());
            String result = out.lines().filter(l -> l.matches("\\s*64\\s+1k\\s.*")).findFirst().orElse("");
            assertTrue(!result.isEmpty(), "its result line (bytes iters total time MB/sec usec/xfer Mxfers/sec): " + out);
            System.out.println("fi_pingpong tcp msg 64 B x 1000 (-c): " + result.trim());
        } finally {
            server.destroyForcibly();
        }
    }

    private static Process start(List<String> common, String... more) throws IOException {
        List<String> command = new java.util.ArrayList<>();
        command.add(FI_PINGPONG.toString());
        command.addAll(common);
        command.addAll(List.of(more));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }
}
