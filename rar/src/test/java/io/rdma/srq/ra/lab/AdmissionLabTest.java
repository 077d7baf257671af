package io.rdma.srq.ra.lab;

import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.api.SrqPeer;
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
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Admission on rxe0 against rdma-core's own clients, which send no private data: with a key set,
 * {@code ucmatose} and {@code rdma_client} are rejected (NO_TOKEN; the kernel's IB CM delivers their
 * connect as 56 zero bytes, driver note 19); without a key ucmatose gets in; and our own pooled peer,
 * presenting the token, gets in and is delivered to. Needs the rxe lab; skipped elsewhere with the reason.
 */
class AdmissionLabTest {
    private static final String HOW = LabTools.HOW;
    private final SrqResourceAdapter ra = new SrqResourceAdapter();
    private final TestBootstrapContext bootstrap = new TestBootstrapContext();
    private final TestEndpointFactory endpoints = new TestEndpointFactory();
    private String device;
    private String address;

    @BeforeEach
    void lab() throws Exception {
        LabTools.Target lab = LabTools.target();
        device = lab.device();
        address = lab.address();
        byte[] key = new byte[32];
        new java.security.SecureRandom().nextBytes(key);
        ra.setAuthKeys("k1=" + Base64.getEncoder().encodeToString(key));
        ra.start(bootstrap);
    }

    @AfterEach
    void stop() throws Exception {
        ra.stop();
        bootstrap.testWorkManager().shutdown();
        assertEquals(endpoints.created.get(), endpoints.released.get(), "every endpoint released");
    }

    private SrqActivation activate(String authKey) throws Exception {
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setResourceAdapter(ra);
        spec.setProvider("ibverbs");
        spec.setDevice(device);
        spec.setListenAddress(address);
        spec.setListenPort("0");
        spec.setSrqMaxWr("256");
        spec.setSrqLimit("16");
        spec.setBufferSize("4096");
        spec.setAuthKey(authKey);
        ra.endpointActivation(endpoints, spec);
        return ra.activations().getFirst();
    }

    private static int run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(command + " still running after 60 s");
        }
        return p.exitValue();
    }

    private List<String> ucmatose(SrqActivation a) {
        // cmatose's client: one connection, no messages (-C 0); it then waits for the server's disconnect
        return List.of(LabTools.tool("ucmatose", HOW), "-s", address, "-p", "" + a.listenAddress().getPort(),
                "-c", "1", "-C", "0");
    }

    @Test
    @DisplayName("with authKey: ucmatose and rdma_client (no private data) are rejected NO_TOKEN")
    void clientsWithoutATokenAreRejectedWhenAKeyIsSet() throws Exception {
        SrqActivation a = activate("k1");
        assertNotEquals(0, run(ucmatose(a)), "ucmatose must fail to connect");
        assertNotEquals(0, run(List.of(LabTools.tool("rdma_client", HOW), "-s", address, "-p",
                "" + a.listenAddress().getPort())), "rdma_client must fail to connect");
        assertEquals(2L, a.statistics().rejectedByReason().get("NO_TOKEN"), a.statistics().toString());
        assertEquals(0, a.statistics().connections());
    }

    @Test
    @DisplayName("without authKey: ucmatose is accepted, and exits 0 when deactivation disconnects it")
    void ucmatoseGetsInWithoutAKey() throws Exception {
        SrqActivation a = activate("");
        Process p = new ProcessBuilder(ucmatose(a)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (a.statistics().connections() < 1 && p.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(1, a.statistics().connections(), "ucmatose's connection accepted: " + a.statistics());
            assertEquals(0, a.statistics().rejected(), a.statistics().toString());
            ra.endpointDeactivation(endpoints, null);   // disconnects: cmatose's client then ends
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "ucmatose still running 60 s after the disconnect");
            assertEquals(0, p.exitValue(), "ucmatose exit code");
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    @DisplayName("with authKey: our pooled peer presents the token, gets in, and its messages are delivered")
    void ourAuthenticatedPeerGetsIn() throws Exception {
        SrqActivation a = activate("k1");
        SrqManagedConnectionFactory mcf = new SrqManagedConnectionFactory();
        mcf.setProvider("ibverbs");
        mcf.setDevice(device);
        mcf.setResourceAdapter(ra);
        mcf.setAuthKey("k1");
        SrqConnectionFactory factory = (SrqConnectionFactory) mcf.createConnectionFactory(new TestConnectionManager());
        try (SrqConnection c = factory.getConnection();
             SrqPeer peer = c.connect(new InetSocketAddress(address, a.listenAddress().getPort()), Duration.ofSeconds(10))) {
            for (int i = 0; i < 10; i++) {
                peer.send(ByteBuffer.allocateDirect(64));
            }
            peer.flush(Duration.ofSeconds(10));
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (endpoints.received.size() < 10 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(10, endpoints.received.size(), a.statistics().toString());
        assertEquals(0, a.statistics().rejected(), a.statistics().toString());
        assertTrue(a.statistics().delivered() >= 10);
    }
}
