package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;

import io.rdma.srq.api.ActivationState;

import io.rdma.srq.ra.SrqResourceAdapter;
import io.rdma.srq.ra.testing.BeanProperties;
import io.rdma.srq.ra.testing.SoftCmatoseServer;
import io.rdma.srq.ra.testing.TestBootstrapContext;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import io.rdma.srq.verbs.soft.SoftProvider;
import jakarta.resource.ResourceException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where activations listen, on the soft device: two on one address and port collide with
 * EADDRINUSE naming the first (also through the wildcard), the port is free again after
 * deactivation, an address no interface has is EADDRNOTAVAIL, and {@code listen=false} activations
 * only connect and hold no port.
 */
class ListeningTest {
    private static final String PORT = "17471";
    private final SrqResourceAdapter ra = new SrqResourceAdapter();
    private final TestBootstrapContext bootstrap = new TestBootstrapContext();
    private int liveBefore;

    @BeforeEach
    void start() throws Exception {
        liveBefore = SoftProvider.liveObjects();
        ra.start(bootstrap);
    }

    @AfterEach
    void stop() throws Exception {
        ra.stop();
        bootstrap.testWorkManager().shutdown();
        assertEquals(liveBefore, SoftProvider.liveObjects(), "every native object freed");
    }

    private SrqActivationSpec spec(String name, String... properties) throws Exception {
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setProvider("soft");
        spec.setSrqName(name);
        spec.setSrqMaxWr("16");
        spec.setSrqLimit("0");
        spec.setListenAddress("10.0.0.1");
        spec.setListenPort(PORT);
        spec.setResourceAdapter(ra);
        BeanProperties.set(spec, properties);
        return spec;
    }

    @Test
    void aSecondActivationOnTheSamePortFailsNamingTheFirst() throws Exception {
        TestEndpointFactory first = new TestEndpointFactory();
        SrqActivationSpec firstSpec = spec("orders");
        ra.endpointActivation(first, firstSpec);
        ResourceException same = assertThrows(ResourceException.class,
                () -> ra.endpointActivation(new TestEndpointFactory(), spec("quotes")));
        assertTrue(same.getMessage().contains("EADDRINUSE") && same.getMessage().contains("activation orders")
                && same.getMessage().contains("10.0.0.1:" + PORT), same.getMessage());
        ResourceException wildcard = assertThrows(ResourceException.class,
                () -> ra.endpointActivation(new TestEndpointFactory(), spec("all", "listenAddress", "0.0.0.0")));
        assertTrue(wildcard.getMessage().contains("EADDRINUSE") && wildcard.getMessage().contains("activation orders"),
                wildcard.getMessage());
        assertEquals(1, ra.activations().size(), "the failed activations left nothing behind");

        ra.endpointDeactivation(first, firstSpec);
        TestEndpointFactory second = new TestEndpointFactory();
        ra.endpointActivation(second, spec("quotes"));
        assertEquals(PORT, String.valueOf(ra.activations().getFirst().listenAddress().getPort()), "the port is free again");
    }

    @Test
    void anotherPortOrAnotherAddressDoesNotCollide() throws Exception {
        ra.endpointActivation(new TestEndpointFactory(), spec("orders"));
        ra.endpointActivation(new TestEndpointFactory(), spec("quotes", "listenPort", "17472"));
        ra.endpointActivation(new TestEndpointFactory(), spec("local", "listenAddress", "127.0.0.1"));
        ra.endpointActivation(new TestEndpointFactory(), spec("any", "listenPort", "0"));
        assertEquals(4, ra.activations().size());
    }

    /**
     * EADDRNOTAVAIL may go away (the interface address comes up after the server), so the activation
     * stays STARTING and retries with backoff instead of failing the deployment; the port it claimed
     * for the failed bind is free again meanwhile.
     */
    @Test
    void anAddressNoInterfaceHasLeavesTheActivationStartingAndThePortFree() throws Exception {
        // a port of its own: no other test's listener can be on it
        ra.endpointActivation(new TestEndpointFactory(), spec("orders", "listenAddress", "192.0.2.77",
                "listenPort", "17481", "recoveryInitialDelay", "60000", "recoveryMaxDelay", "60000"));
        assertEquals(ActivationState.STARTING, named("orders").state(),
                "rdma_bind_addr of 192.0.2.77: EADDRNOTAVAIL, retried later");
        ra.endpointActivation(new TestEndpointFactory(), spec("any", "listenAddress", "0.0.0.0", "listenPort", "17481"));
        assertEquals(ActivationState.ACTIVE, named("any").state(), "the port the failed bind claimed is free");
    }

    @Test
    void aListenFreeActivationOnlyConnectsAndHoldsNoPort() throws Exception {
        try (SoftCmatoseServer server = new SoftCmatoseServer(2, 20, 100)) {
            TestEndpointFactory endpoints = new TestEndpointFactory();
            endpoints.behaviour(c -> {
                try {
                    c.reply(ByteBuffer.wrap(c.copyPayload()));
                } catch (io.rdma.srq.api.VerbsException e) {
                    throw new IllegalStateException(e);
                }
            });
            ra.endpointActivation(endpoints, spec("subscriber", "listen", "false",
                    "connectTo", "10.0.0.2:" + server.address().getPort(), "connectCount", "2",
                    "reconnectInterval", "600000"));
            SrqActivation a = ra.activations().getFirst();
            assertNull(a.listenAddress(), "no listener");
            // the port it would have listened on is free for another activation
            ra.endpointActivation(new TestEndpointFactory(), spec("listener"));
            assertTrue(server.run(Duration.ofSeconds(30)), "the server's exchange ended: " + server.repliesReceived);
            assertEquals(40, server.repliesReceived, "every message answered over the connections it made");
            assertEquals(List.of(), endpoints.violations);
        }
    }

    /** @return the activation of that srqName (the adapter's list has no order) */
    private SrqActivation named(String name) {
        return ra.activations().stream().filter(a -> a.name().equals(name)).findFirst().orElseThrow();
    }
}
