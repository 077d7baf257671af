package io.rdma.srq.ra.testing;

import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.inbound.SrqActivationSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The fixture of container-less activation tests on the soft device: {@link SoftAdapterTest}'s
 * started adapter, an endpoint factory standing in for the EJB container (as the Artemis RA tests
 * do), the soft senders a test connects (closed before the adapter stops), activation specs on the
 * soft provider, and a bounded wait. After each test, once the adapter has stopped: every
 * beforeDelivery/onReceive/afterDelivery strictly paired, every endpoint released, every native
 * object freed.
 */
public abstract class SoftActivationTest extends SoftAdapterTest {
    /** How long {@link #await} waits before it fails. */
    public static final Duration PATIENCE = Duration.ofSeconds(30);

    /** The endpoint factory activations deliver to. */
    protected final TestEndpointFactory endpoints;
    /** Senders closed after the test, before the adapter stops. */
    protected final List<SoftSender> senders = new ArrayList<>();
    /** Events the adapter fired to the application's observers, in order (a test may set its own sink instead). */
    protected final List<Object> events = new CopyOnWriteArrayList<>();

    /** With a factory of single-message endpoints. */
    protected SoftActivationTest() {
        this(new TestEndpointFactory());
    }

    /** @param endpoints the endpoint factory activations deliver to */
    protected SoftActivationTest(TestEndpointFactory endpoints) {
        this.endpoints = endpoints;
    }

    @BeforeEach
    void collectEvents() {
        ra.setEventSink((event, loader) -> events.add(event));
    }

    @AfterEach
    void closeSoftSenders() throws VerbsException {
        for (SoftSender s : senders) {
            s.close();
        }
    }

    @Override
    protected void afterStop() {
        assertEquals(List.of(), endpoints.violations, "beforeDelivery/onReceive/afterDelivery strictly paired");
        assertEquals(endpoints.created.get(), endpoints.released.get(), "every endpoint released");
    }

    /**
     * An activation spec on the soft provider, listening on 10.0.0.1 (any port), of {@link #ra}.
     *
     * @param properties pairs of property name and value, set in order (a later pair wins)
     * @return the spec
     * @throws Exception for a property without a setter, or a value its setter refuses
     */
    protected SrqActivationSpec spec(String... properties) throws Exception {
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setProvider("soft");
        spec.setListenAddress("10.0.0.1");
        spec.setListenPort("0");
        spec.setResourceAdapter(ra);
        return set(spec, properties);
    }

    /**
     * Sets properties through their setters.
     *
     * @param spec       the spec
     * @param properties pairs of property name and value, set in order
     * @return {@code spec}
     * @throws Exception for a property without a setter, or one that refuses its value
     */
    protected static SrqActivationSpec set(SrqActivationSpec spec, String... properties) throws Exception {
        return BeanProperties.set(spec, properties);
    }

    /**
     * Activates {@link #endpoints} with {@code spec}.
     *
     * @param spec the spec
     * @return the activation of {@link #endpoints}
     * @throws Exception what endpointActivation throws
     */
    protected SrqActivation activate(SrqActivationSpec spec) throws Exception {
        ra.endpointActivation(endpoints, spec);
        return ra.activations().stream().filter(a -> a.factory() == endpoints).findFirst().orElseThrow();
    }

    /**
     * Activates {@link #endpoints} with {@link #spec(String...)}.
     *
     * @param properties pairs of property name and value
     * @return the activation of {@link #endpoints}
     * @throws Exception what endpointActivation throws
     */
    protected SrqActivation activate(String... properties) throws Exception {
        return activate(spec(properties));
    }

    /**
     * Connects a sender on soft_rxe0 to the activation's listener; it is closed after the test.
     *
     * @param a     the activation
     * @param bytes the largest message
     * @return the sender
     * @throws VerbsException when the connect fails
     */
    protected SoftSender sender(SrqActivation a, int bytes) throws VerbsException {
        SoftSender s = new SoftSender(a.listenAddress(), bytes);
        senders.add(s);
        return s;
    }

    /**
     * Waits until {@code condition} holds, at most {@link #PATIENCE}.
     *
     * @param condition what to wait for
     * @param what      names it in the failure
     * @throws InterruptedException if interrupted
     */
    public static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(2);
        }
    }

    /**
     * Waits for {@code latch} to open, at most {@link #PATIENCE}, for an endpoint's behaviour held at a
     * gate (an interrupt ends the wait, the flag kept).
     *
     * @param latch the gate
     * @throws IllegalStateException when it never opened
     */
    public static void awaitQuietly(CountDownLatch latch) {
        try {
            if (!latch.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("latch never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
