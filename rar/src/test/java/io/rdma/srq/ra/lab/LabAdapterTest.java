package io.rdma.srq.ra.lab;

import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.ra.SrqResourceAdapter;
import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.outbound.SrqManagedConnectionFactory;
import io.rdma.srq.ra.testing.TestBootstrapContext;
import io.rdma.srq.ra.testing.TestConnectionManager;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import io.rdma.srq.verbs.lab.LabTools;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The fixture of the adapter's lab tests: the resource adapter started on a test BootstrapContext,
 * an endpoint factory standing in for the EJB container, and the lab's device and address
 * ({@link LabTools#target()}: outside the rxe lab every test is skipped, naming how to run it).
 * After each test (a subclass's own {@code @AfterEach} runs first): the adapter stopped, every
 * beforeDelivery/onReceive/afterDelivery strictly paired, every endpoint released.
 */
abstract class LabAdapterTest {
    /** The adapter under test. */
    protected final SrqResourceAdapter ra = new SrqResourceAdapter();
    /** Its container stand-in. */
    protected final TestBootstrapContext bootstrap = new TestBootstrapContext();
    /** The endpoint factory activations deliver to. */
    protected final TestEndpointFactory endpoints = new TestEndpointFactory();
    /** The lab's RDMA device, e.g. rxe0. */
    protected String device;
    /** The device's IP address, e.g. 10.77.0.1. */
    protected String address;

    @BeforeEach
    void startOnTheLabDevice() throws Exception {
        LabTools.Target lab = LabTools.target();
        device = lab.device();
        address = lab.address();
        ra.start(bootstrap);
    }

    @AfterEach
    void stopTheAdapter() throws Exception {
        ra.stop();
        bootstrap.testWorkManager().shutdown();
        assertEquals(List.of(), endpoints.violations, "beforeDelivery/onReceive/afterDelivery strictly paired");
        assertEquals(endpoints.created.get(), endpoints.released.get(), "every endpoint released");
    }

    /**
     * @return an activation spec of {@link #ra} on the lab's device, listening on its address, any port
     * @throws Exception what the spec's setters throw
     */
    protected SrqActivationSpec labSpec() throws Exception {
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setResourceAdapter(ra);
        spec.setProvider("ibverbs");
        spec.setDevice(device);
        spec.setListenAddress(address);
        spec.setListenPort("0");
        return spec;
    }

    /**
     * @param cm the connection manager (the pool)
     * @return a connection factory of {@link #ra} on the lab's device
     * @throws Exception what createConnectionFactory throws
     */
    protected SrqConnectionFactory labConnectionFactory(TestConnectionManager cm) throws Exception {
        SrqManagedConnectionFactory mcf = new SrqManagedConnectionFactory();
        mcf.setProvider("ibverbs");
        mcf.setDevice(device);
        mcf.setResourceAdapter(ra);
        return (SrqConnectionFactory) mcf.createConnectionFactory(cm);
    }
}
