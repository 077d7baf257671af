package io.rdma.srq.verbs.lab;

import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.Verbs;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * rdma_cm interop with peers nobody here wrote (rdmacm-utils): a Java listener accepts their
 * connections onto ONE SRQ and answers every message. Needs the rxe lab (real rdma_cm on rxe0);
 * skipped elsewhere with the reason.
 */
class CmInteropLabTest {
    private static final String HOW = LabTools.HOW;
    private String device;
    private InetAddress address;

    @BeforeEach
    void lab() throws Exception {
        LabTools.Target lab = LabTools.target();
        device = lab.device();
        address = InetAddress.getByName(lab.address());
    }

    private static String tool(String name) {
        return LabTools.tool(name, HOW);
    }

    private static Process start(List<String> command) throws Exception {
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
    }

    @Test
    @DisplayName("ucmatose -c 8 -C 100: 8 clients on one SRQ; as cmatose's server, 100 messages each way per connection; ucmatose exits 0")
    void ucmatoseClientsOnOneSrq() throws Exception {
        String ucmatose = tool("ucmatose");
        try (Context ctx = Verbs.provider(Verbs.IBVERBS).open(device)) {
            SrqEchoServer server = new SrqEchoServer(ctx, new InetSocketAddress(address, 0), 100, 100);
            try {
                Process client = start(List.of(ucmatose, "-s", address.getHostAddress(), "-p",
                        String.valueOf(server.address().getPort()), "-c", "8", "-C", "100"));
                server.serveUntil(() -> !client.isAlive() && server.disconnected == server.accepted, Duration.ofSeconds(90));
                assertEquals(true, client.waitFor(5, TimeUnit.SECONDS), "ucmatose still running");
                assertEquals(0, client.exitValue(), "ucmatose exit code");
                assertEquals(8, server.accepted, "connections accepted onto the SRQ");
                assertEquals(800, server.received, "replies received through the one SRQ");
                assertEquals(0, server.errorCompletions, "error completions");
            } finally {
                server.close();
            }
        }
    }

    @Test
    @DisplayName("rdma_client: connects, sends, gets its answer from a QP on the SRQ, exits 0")
    void rdmaClientOnTheSrq() throws Exception {
        String rdmaClient = tool("rdma_client");
        try (Context ctx = Verbs.provider(Verbs.IBVERBS).open(device)) {
            SrqEchoServer server = new SrqEchoServer(ctx, new InetSocketAddress(address, 0));
            try {
                Process client = start(List.of(rdmaClient, "-s", address.getHostAddress(), "-p",
                        String.valueOf(server.address().getPort())));
                server.serveUntil(() -> !client.isAlive(), Duration.ofSeconds(60));
                assertEquals(true, client.waitFor(5, TimeUnit.SECONDS), "rdma_client still running");
                assertEquals(0, client.exitValue(), "rdma_client exit code");
                assertEquals(1, server.accepted);
                assertEquals(1, server.received);
                assertEquals(1, server.answered);
            } finally {
                server.close();
            }
        }
    }
}
