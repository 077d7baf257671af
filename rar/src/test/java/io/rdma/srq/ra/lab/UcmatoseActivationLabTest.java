package io.rdma.srq.ra.lab;

import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.SrqResourceAdapter;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.testing.TestBootstrapContext;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import io.rdma.srq.verbs.lab.LabTools;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An activation against rdma-core's own {@code ucmatose} on rxe0, with a minimal container (test
 * BootstrapContext and WorkManager, endpoint factory). {@code ucmatose -c 8 -C 100} is cmatose's
 * server: it waits for 8 connections, sends 100 messages of 100 bytes on each, then waits for 100
 * replies on each (librdmacm/examples/cmatose.c, run_server). The activation keeps 8 connections to
 * it ({@code connectTo}) on its one SRQ, and the listener answers every message it is given
 * ({@code ReceiveCompletion.reply}). Needs the rxe lab; skipped elsewhere with the reason.
 */
class UcmatoseActivationLabTest {
    private static final String HOW = LabTools.HOW;
    private final SrqResourceAdapter ra = new SrqResourceAdapter();
    private final TestBootstrapContext bootstrap = new TestBootstrapContext();
    private final TestEndpointFactory endpoints = new TestEndpointFactory();
    private String device;
    private String address;
    private Process ucmatose;

    @BeforeEach
    void lab() throws Exception {
        LabTools.Target lab = LabTools.target();
        device = lab.device();
        address = lab.address();
        ra.start(bootstrap);
    }

    @AfterEach
    void stop() throws Exception {
        if (ucmatose != null) {
            ucmatose.destroyForcibly();
        }
        ra.stop();
        bootstrap.testWorkManager().shutdown();
        assertEquals(List.of(), endpoints.violations, "beforeDelivery/onReceive/afterDelivery strictly paired");
        assertEquals(endpoints.created.get(), endpoints.released.get(), "every endpoint released");
    }

    private static String tool(String name) {
        return LabTools.tool(name, HOW);
    }

    @Test
    @DisplayName("ucmatose -c 8 -C 100 against an activation: 800 messages delivered, each answered, ucmatose exits 0")
    void ucmatoseServerAgainstAnActivation() throws Exception {
        ucmatose = new ProcessBuilder(tool("ucmatose"), "-c", "8", "-C", "100")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
        AtomicInteger answered = new AtomicInteger();
        endpoints.behaviour(c -> {
            try {
                c.reply(c.payload());
                answered.incrementAndGet();
            } catch (VerbsException e) {
                throw new IllegalStateException(e);
            }
        });
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setResourceAdapter(ra);
        spec.setProvider("ibverbs");
        spec.setDevice(device);
        spec.setListenAddress(address);
        spec.setListenPort("0");
        spec.setSrqMaxWr("256");
        spec.setSrqLimit("16");
        spec.setBufferSize("4096");
        spec.setReplyBufferSize("100");
        spec.setConnectTo(address + ":7471"); // ucmatose's default port
        spec.setConnectCount("8");
        spec.setReconnectInterval("500"); // until ucmatose listens
        ra.endpointActivation(endpoints, spec);
        SrqActivation a = ra.activations().getFirst();

        assertTrue(ucmatose.waitFor(180, TimeUnit.SECONDS), "ucmatose still running after 180 s: " + a.statistics());
        assertEquals(0, ucmatose.exitValue(), "ucmatose exit code");
        ActivationStatistics st = a.statistics();
        assertEquals(800, st.delivered(), "every message delivered to the listener: " + st);
        assertEquals(800, answered.get(), "each answered");
        assertEquals(0, st.endpointFailures(), st.toString());
        assertEquals(0, st.errorCompletions(), st.toString());
        assertEquals(800, endpoints.received.size());
        assertEquals(8, new HashSet<>(endpoints.received.stream().map(TestEndpointFactory.Received::qpNum).toList()).size(),
                "eight connections, eight QPs on the one SRQ");
    }
}
