package io.rdma.srq.ra.lab;

import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.ra.cluster.ServiceProvider;
import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.testing.TestConnectionManager;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Calls by service name on a real device (the lab's rxe, provider ibverbs): two activations publish
 * the service {@code lab-echo} (their listeners on the device's address, ports chosen by rdma_cm),
 * the directory lists both over {@code ibverbs}, and calls by name over rdma_cm spread over both,
 * each answered by its own reply; an undeploy of one mid-way fails no call.
 */
class ServiceCallLabTest extends LabAdapterTest {
    private static final Duration T = Duration.ofSeconds(10);
    private final TestEndpointFactory other = new TestEndpointFactory();

    private SrqActivation provide(TestEndpointFactory f, String srqName) throws Exception {
        f.recordPayloads(false);
        f.behaviour(TestEndpointFactory::echo);
        SrqActivationSpec spec = labSpec();
        spec.setSrqName(srqName);
        spec.setServiceName("lab-echo");
        spec.setSrqMaxWr("256");
        spec.setSrqLimit("0");
        ra.endpointActivation(f, spec);
        return ra.activations().stream().filter(a -> a.name().equals(srqName)).findFirst().orElseThrow();
    }

    private static String call(SrqPeer peer, int i) {
        ByteBuffer request = ByteBuffer.wrap(("lab-" + i).getBytes(StandardCharsets.US_ASCII));
        return new String(peer.call(request, T).copyPayload(), StandardCharsets.US_ASCII);
    }

    @Test
    void callsByNameOverRxeSpreadAndAnUndeployFailsNone() throws Exception {
        SrqActivation a = provide(endpoints, "lab-echo-a");
        SrqActivation b = provide(other, "lab-echo-b");
        List<ServiceProvider> listed = ra.serviceDirectory().providers("lab-echo");
        assertEquals(2, listed.size(), "both published: " + listed);
        assertTrue(listed.stream().allMatch(p -> p.endpoint().transport().equals("ibverbs")
                && p.endpoint().address().getAddress().getHostAddress().equals(address)), listed.toString());
        SrqConnectionFactory factory = labConnectionFactory(new TestConnectionManager());
        try (SrqConnection c = factory.getConnection(); SrqPeer echo = c.connect("lab-echo", T)) {
            for (int i = 0; i < 200; i++) {
                assertEquals("lab-" + i, call(echo, i), "call " + i);
            }
            assertEquals(100, a.statistics().delivered(), "round robin");
            assertEquals(100, b.statistics().delivered());
            ra.endpointDeactivation(other, null);
            for (int i = 200; i < 400; i++) {
                assertEquals("lab-" + i, call(echo, i), "call " + i + " after b undeployed");
            }
        }
        assertEquals(300, a.statistics().delivered(), "every call after the undeploy went to a");
    }
}
