package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.SrqResourceAdapter;
import io.rdma.srq.ra.testing.SoftSender;
import io.rdma.srq.ra.testing.TestBootstrapContext;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import io.rdma.srq.verbs.soft.SoftProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The fixture of container-less activation tests on the soft device: a started adapter (test
 * BootstrapContext and WorkManager), the test endpoint factory, every CDI event the adapter fires
 * collected, and senders on their own soft contexts. After each test: senders closed, adapter
 * stopped, endpoint calls strictly paired, every endpoint released and every native object freed.
 */
abstract class ActivationFixture {
    protected final SrqResourceAdapter ra = new SrqResourceAdapter();
    protected final TestBootstrapContext bootstrap = new TestBootstrapContext();
    protected final TestEndpointFactory endpoints;
    /** Events fired to the application's observers, in order. */
    protected final List<Object> events = new CopyOnWriteArrayList<>();
    private final List<SoftSender> senders = new ArrayList<>();
    private int liveBefore;

    /** With message-listener endpoints. */
    protected ActivationFixture() {
        this(false);
    }

    /** @param batch whether the endpoints implement SrqBatchListener */
    protected ActivationFixture(boolean batch) {
        this.endpoints = new TestEndpointFactory(batch);
    }

    @BeforeEach
    void startAdapter() throws Exception {
        liveBefore = SoftProvider.liveObjects();
        ra.start(bootstrap);
        ra.setEventSink((event, loader) -> events.add(event));
    }

    @AfterEach
    void stopAdapter() throws Exception {
        for (SoftSender s : senders) {
            s.close();
        }
        ra.stop();
        bootstrap.testWorkManager().shutdown();
        assertEquals(List.of(), endpoints.violations, "beforeDelivery/onReceive/afterDelivery strictly paired");
        assertEquals(endpoints.created.get(), endpoints.released.get(), "every endpoint released");
        assertEquals(liveBefore, SoftProvider.liveObjects(), "deactivation freed every native object");
    }

    /**
     * Activates {@link #endpoints} on the soft device, listening on 10.0.0.1, any port.
     *
     * @param properties activation property names and values, alternating
     * @return the activation
     */
    protected SrqActivation activate(String... properties) throws Exception {
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setProvider("soft");
        spec.setListenAddress("10.0.0.1");
        spec.setListenPort("0");
        spec.setResourceAdapter(ra);
        for (int i = 0; i < properties.length; i += 2) {
            String p = properties[i];
            SrqActivationSpec.class.getMethod("set" + Character.toUpperCase(p.charAt(0)) + p.substring(1), String.class)
                    .invoke(spec, properties[i + 1]);
        }
        ra.endpointActivation(endpoints, spec);
        return ra.activations().getLast();
    }

    /** @return a new sender connected to {@code a}, closed after the test */
    protected SoftSender sender(SrqActivation a, int bytes) throws Exception {
        SoftSender s = new SoftSender(a.listenAddress(), bytes);
        senders.add(s);
        return s;
    }

    /** Waits up to 30 s for {@code condition}. */
    protected static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(2);
        }
    }
}
