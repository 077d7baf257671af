package io.rdma.srq.ra.fabric;

import io.rdma.srq.api.PeerUnavailableException;
import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqMessage;
import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.ra.cluster.ServiceDirectory;
import io.rdma.srq.ra.cluster.ServiceEndpoint;
import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import jakarta.resource.ResourceException;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Calls by service name ({@code SrqConnection.connect(String, Duration)}) over the fabric provider,
 * container-less, on this JVM's service directory: activations publish their listener under their
 * serviceName; calls spread over every provider, each answered by its own reply; a provider that is
 * undeployed mid-stream withdraws first and no call fails for it; a provider listed but dead (its
 * connect refused) is passed over and the call goes to a live one; a service nobody serves, a bad
 * name and a clashing publication are refused with errors that say so.
 */
class ServiceCallFailoverTest extends LibfabricAdapterTest {
    private final TestEndpointFactory other = new TestEndpointFactory();

    private SrqActivation provide(TestEndpointFactory f, String srqName, String service) throws Exception {
        f.recordPayloads(false);
        f.behaviour(TestEndpointFactory::echo);
        SrqActivationSpec spec = spec(srqName, service, "fabric");
        ra.endpointActivation(f, spec);
        return ra.activations().stream().filter(a -> a.name().equals(srqName)).findFirst().orElseThrow();
    }

    private SrqActivationSpec spec(String srqName, String service, String provider) throws ResourceException {
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setProvider(provider);
        spec.setDevice("fabric".equals(provider) ? "tcp" : "");
        spec.setListenAddress("127.0.0.1");
        spec.setListenPort("0");
        spec.setSrqMaxWr("256");
        spec.setSrqLimit("0");
        spec.setSrqName(srqName);
        spec.setServiceName(service);
        spec.setResourceAdapter(ra);
        return spec;
    }

    @Test
    void callsByNameSpreadOverEveryProviderAndEachGetsItsOwnReply() throws Exception {
        SrqActivation a = provide(endpoints, "echo-a", "echo");
        SrqActivation b = provide(other, "echo-b", "echo");
        try (SrqConnection c = factory.getConnection(); SrqPeer echo = c.connect("echo", T)) {
            for (int i = 0; i < 200; i++) {
                assertEquals("call-" + i, text(echo.call(request(i), T)), "call " + i + " got its own reply");
            }
        }
        assertEquals(200, a.statistics().delivered() + b.statistics().delivered());
        assertEquals(100, a.statistics().delivered(), "round robin: half the calls to each provider");
        assertEquals(100, b.statistics().delivered());
    }

    @Test
    void aProviderUndeployedMidStreamWithdrawsFirstAndNoCallFails() throws Exception {
        provide(endpoints, "echo-a", "echo");
        SrqActivation b = provide(other, "echo-b", "echo");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong issued = new AtomicLong();
        AtomicLong answered = new AtomicLong();
        List<Future<String>> callers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            for (int t = 0; t < 4; t++) {
                int thread = t;
                callers.add(pool.submit(() -> {
                    try (SrqConnection c = factory.getConnection(); SrqPeer echo = c.connect("echo", T)) {
                        for (int i = 0; !stop.get(); i++) {
                            issued.incrementAndGet();
                            int n = thread * 1_000_000 + i;
                            if (!text(echo.call(request(n), T)).equals("call-" + n)) {
                                return "call " + n + " got another's reply";
                            }
                            answered.incrementAndGet();
                        }
                    } catch (RuntimeException e) {
                        return "a call failed: " + e;
                    }
                    return null;
                }));
            }
            waitUntil(() -> b.statistics().delivered() > 100, "calls reaching both providers");
            ra.endpointDeactivation(other, null); // withdraws, serves on for the directory's staleness, then stops
            long atUndeploy = answered.get();
            waitUntil(() -> answered.get() > atUndeploy + 500, "calls going on after the undeploy");
            stop.set(true);
            for (Future<String> f : callers) {
                assertEquals(null, f.get(), "every call answered by its own reply");
            }
        }
        assertEquals(issued.get(), answered.get(), "issued = answered: no call failed for the undeploy");
    }

    @Test
    void aListedProviderThatRefusesIsPassedOverAndTheCallGoesToALiveOne() throws Exception {
        SrqActivation a = provide(endpoints, "echo-a", "echo");
        int dead;
        try (ServerSocket s = new ServerSocket(0)) { // a port nobody listens on once closed
            dead = s.getLocalPort();
        }
        ServiceDirectory directory = ra.serviceDirectory();
        try (ServiceDirectory.Publication ghost = directory.publish(new ServiceEndpoint("echo", "fabric",
                new InetSocketAddress("127.0.0.1", dead)))) {
            try (SrqConnection c = factory.getConnection(); SrqPeer echo = c.connect("echo", T)) {
                for (int i = 0; i < 50; i++) {
                    assertEquals("call-" + i, text(echo.call(request(i), T)));
                }
            }
        }
        assertEquals(50, a.statistics().delivered(), "every call went to the live provider");
        assertTrue(((io.rdma.srq.ra.management.DefinitionViewSource) factory).definitionView().serviceFailovers() >= 1,
                "the refused connect counted as a failover of the definition");
    }

    @Test
    void aServiceNobodyServesIsPeerUnavailableNamingItAndTheMembers() throws Exception {
        provide(endpoints, "echo-a", "echo");
        try (SrqConnection c = factory.getConnection()) {
            long start = System.nanoTime();
            PeerUnavailableException e = assertThrows(PeerUnavailableException.class, () -> c.connect("nobody", T));
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertEquals("EHOSTUNREACH", e.errnoName());
            assertTrue(e.getMessage().contains("'nobody'") && e.getMessage().contains("members seen: ["), e.getMessage());
            assertTrue(ms >= 1_900 && ms < 9_000, "a bounded wait for the directory (2 s), took " + ms + " ms");
        }
    }

    @Test
    void aNameThatIsNotAServiceNameIsRefusedNamingTheRule() throws Exception {
        try (SrqConnection c = factory.getConnection()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> c.connect("no spaces", T));
            assertTrue(e.getMessage().contains("'no spaces'") && e.getMessage().contains("letters, digits"), e.getMessage());
        }
        SrqActivationSpec spec = spec("x", "bad/name", "fabric");
        ResourceException e = assertThrows(ResourceException.class, () -> ra.endpointActivation(endpoints, spec));
        assertTrue(e.getMessage().contains("serviceName") && e.getMessage().contains("'bad/name'"), e.getMessage());
    }

    @Test
    void oneServiceOverTwoProvidersOnOneNodeIsAClashRefusedAtActivation() throws Exception {
        provide(endpoints, "echo-a", "echo");
        ResourceException e = assertThrows(ResourceException.class,
                () -> ra.endpointActivation(other, spec("echo-soft", "echo", "soft")));
        assertTrue(e.getMessage().contains("serviceName") && e.getMessage().contains("fabric"), e.getMessage());
        assertEquals(1, ra.activations().size(), "the clashing activation did not start");
    }

    @Test
    void aCallTheEndpointRefusesBeforeItRunsIsAnsweredNotRunAndGoesToAnotherProvider() throws Exception {
        SrqActivation a = provide(endpoints, "echo-a", "echo");
        SrqActivation b = provide(other, "echo-b", "echo");
        other.unavailable = true; // b's endpoint refuses every delivery before the listener runs (an MDB stopping)
        try (SrqConnection c = factory.getConnection()) {
            PeerUnavailableException e = assertThrows(PeerUnavailableException.class,
                    () -> c.connect(b.listenAddress().getPort() == 0 ? null : new InetSocketAddress("127.0.0.1",
                            b.listenAddress().getPort()), T).call(request(-1), T));
            assertEquals("ECANCELED", e.errnoName(), "by address the caller learns it was not run: " + e.getMessage());
            waitUntil(() -> ra.serviceDirectory().providers("echo").size() == 1, "b withdrew at the first refusal");
            other.unavailable = false;
            provideAgain(b);
            other.unavailable = true;
            try (SrqPeer echo = c.connect("echo", T)) {
                for (int i = 0; i < 100; i++) {
                    assertEquals("call-" + i, text(echo.call(request(i), T)), "call " + i);
                }
            }
        }
        assertEquals(100, a.statistics().delivered(), "every call by name ran once, on a");
        assertEquals(0, b.statistics().delivered(), "b ran none");
    }

    /** Publishes b again (a withdrawal lasts for the run): a recovery-like restart of its publication. */
    private void provideAgain(SrqActivation b) throws Exception {
        ra.endpointDeactivation(other, null);
        provide(other, "echo-b", "echo");
    }
}
