package io.rdma.srq.ra.lab;

import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.api.SrqMessage;
import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.SrqResourceAdapter;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.outbound.SrqManagedConnectionFactory;
import io.rdma.srq.ra.testing.TestBootstrapContext;
import io.rdma.srq.ra.testing.TestConnectionManager;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import io.rdma.srq.verbs.lab.LabTools;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Request/reply through a pooled connection's pooled SRQ on rxe0: against an activation of this
 * adapter on the same device (its listener echoes; the call is matched by its imm_data number), and
 * against rdma-core's {@code rdma_server} (librdmacm/examples/rdma_server.c: one connection, one
 * receive of 16 bytes, a plain 16-byte SEND back, then it disconnects), a foreign peer matched in
 * order. Needs the rxe lab; skipped elsewhere with the reason.
 */
class RequestReplyLabTest {
    private static final String HOW = LabTools.HOW;
    private static final Duration T = Duration.ofSeconds(10);
    private final SrqResourceAdapter ra = new SrqResourceAdapter();
    private final TestBootstrapContext bootstrap = new TestBootstrapContext();
    private final TestConnectionManager cm = new TestConnectionManager();
    private final TestEndpointFactory endpoints = new TestEndpointFactory();
    private String device;
    private String address;
    private SrqConnectionFactory factory;
    private Process server;

    @BeforeEach
    void lab() throws Exception {
        LabTools.Target lab = LabTools.target();
        device = lab.device();
        address = lab.address();
        ra.start(bootstrap);
        SrqManagedConnectionFactory mcf = new SrqManagedConnectionFactory();
        mcf.setProvider("ibverbs");
        mcf.setDevice(device);
        mcf.setSrqMaxWr("256");
        mcf.setResourceAdapter(ra);
        factory = (SrqConnectionFactory) mcf.createConnectionFactory(cm);
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.destroyForcibly();
        }
        if (factory != null) {
            cm.flush();
            ra.stop();
            bootstrap.testWorkManager().shutdown();
        }
    }

    @Test
    @DisplayName("1000 calls from a pooled connection to an activation on rxe0, each its own reply")
    void callsToAnActivationOnRxe() throws Exception {
        endpoints.recordPayloads(false);
        endpoints.behaviour(TestEndpointFactory::echo);
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setResourceAdapter(ra);
        spec.setProvider("ibverbs");
        spec.setDevice(device);
        spec.setListenAddress(address);
        spec.setListenPort("0");
        spec.setSrqMaxWr("256");
        ra.endpointActivation(endpoints, spec);
        SrqActivation a = ra.activations().getFirst();
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer peer = c.connect(a.listenAddress(), T);
            long[] nanos = new long[1000];
            for (int i = 0; i < 1000; i++) {
                long start = System.nanoTime();
                SrqMessage r = peer.call(ByteBuffer.allocate(8).putInt(0, i), T);
                nanos[i] = System.nanoTime() - start;
                assertEquals(i, r.payload().getInt(0));
                assertTrue(r.hasImmData(), "the activation echoes the call's number");
            }
            java.util.Arrays.sort(nanos);
            System.out.printf("rxe0 call round trip (8 B, 1000 calls): p50 %.1f us, p99 %.1f us%n",
                    nanos[500] / 1e3, nanos[990] / 1e3);
        }
    }

    @Test
    @DisplayName("rdma_server (rdma-core) answers a call made through the pooled SRQ: 16 bytes, matched in order")
    void rdmaServerAnswersACall() throws Exception {
        int port = 7489;
        server = new ProcessBuilder(LabTools.tool("rdma_server", HOW), "-p", "" + port)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer peer = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (peer == null) {
                try {
                    peer = c.connect(new InetSocketAddress(address, port), T);
                } catch (VerbsException notYet) { // until rdma_server listens
                    if (System.nanoTime() > deadline) {
                        throw notYet;
                    }
                    Thread.sleep(200);
                }
            }
            SrqMessage reply = peer.call(ByteBuffer.allocate(16), T);
            assertEquals(16, reply.length(), "rdma_server sends its 16-byte buffer");
            assertFalse(reply.hasImmData(), "a plain SEND: matched in order to the one waiting call");
        }
        assertTrue(server.waitFor(30, TimeUnit.SECONDS), "rdma_server exits after its one exchange");
        assertEquals(0, server.exitValue(), "rdma_server exit code");
    }
}
