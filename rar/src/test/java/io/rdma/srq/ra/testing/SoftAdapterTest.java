package io.rdma.srq.ra.testing;

import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.ra.SrqResourceAdapter;
import io.rdma.srq.ra.outbound.SrqManagedConnectionFactory;
import io.rdma.srq.verbs.soft.SoftProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The fixture of container-less adapter tests on the soft device: a started resource adapter (test
 * BootstrapContext), a connection definition on the soft provider and its factory over a pooling
 * test ConnectionManager. After each test the adapter is stopped (deactivating what is active and
 * destroying every pooled connection) and every soft native object must be freed.
 */
public abstract class SoftAdapterTest {
    /** The resource adapter, started. */
    protected final SrqResourceAdapter ra = new SrqResourceAdapter();
    /** Its bootstrap context. */
    protected final TestBootstrapContext bootstrap = new TestBootstrapContext();
    /** The pool of {@link #factory}. */
    protected final TestConnectionManager cm = new TestConnectionManager();
    /** A connection definition with provider soft, associated with {@link #ra}. */
    protected SrqManagedConnectionFactory mcf;
    /** Its connection factory over {@link #cm}. */
    protected SrqConnectionFactory factory;
    /** Soft native objects alive before the test. */
    protected int liveBefore;

    @BeforeEach
    void startAdapter() throws Exception {
        liveBefore = SoftProvider.liveObjects();
        ra.start(bootstrap);
        mcf = new SrqManagedConnectionFactory();
        mcf.setProvider("soft");
        mcf.setResourceAdapter(ra);
        factory = (SrqConnectionFactory) mcf.createConnectionFactory(cm);
    }

    @AfterEach
    void stopAdapter() throws Exception {
        ra.stop();
        bootstrap.testWorkManager().shutdown();
        afterStop();
        assertEquals(liveBefore, SoftProvider.liveObjects(), "every native object freed");
    }

    /**
     * Checks what must hold once the adapter has stopped; none by default.
     *
     * @throws Exception a failed check
     */
    protected void afterStop() throws Exception {
    }
}
