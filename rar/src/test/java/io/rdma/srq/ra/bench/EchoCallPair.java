package io.rdma.srq.ra.bench;

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
import io.rdma.srq.ra.testing.TestWorkManager;

import java.time.Duration;

/**
 * Both ends of the adapter's request/reply, container-less, in one JVM: a resource adapter with an
 * activation whose listener answers every request with {@code ReceiveCompletion.reply} of the
 * request's own bytes, and a pooled connection (SrqManagedConnectionFactory → SrqConnectionFactory →
 * {@link SrqConnection#connect}) whose {@link #peer()} calls it. What {@link CallBenchmark} (soft
 * device, JMH) and {@link CallRoundTrip} (rxe0 in the lab) time.
 */
public final class EchoCallPair implements AutoCloseable {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);
    private final SrqResourceAdapter ra = new SrqResourceAdapter();
    private final TestBootstrapContext bootstrap = new TestBootstrapContext(new TestWorkManager());
    private final TestConnectionManager cm = new TestConnectionManager();
    private SrqConnection connection;
    private SrqPeer peer;

    private EchoCallPair() {
    }

    /**
     * Starts the adapter, activates the echoing listener and connects a pooled connection's peer to it.
     *
     * @param provider       verbs provider of both ends (soft, ibverbs, ...)
     * @param device         device name of both ends ("" = the provider's first)
     * @param listenAddress  the activation's rdma_cm listen address (port: any free one)
     * @param pollMode       the activation's pollMode: busy, event or adaptive
     * @param maxConcurrency the activation's maxConcurrency: "1" delivers on the poller's thread
     * @return the connected pair; close it
     * @throws Exception activation or connection failure (the half-built pair is closed first)
     */
    public static EchoCallPair open(String provider, String device, String listenAddress, String pollMode,
                                    String maxConcurrency) throws Exception {
        EchoCallPair pair = new EchoCallPair();
        try {
            pair.start(provider, device, listenAddress, pollMode, maxConcurrency);
            return pair;
        } catch (Exception | Error e) {
            pair.close();
            throw e;
        }
    }

    private void start(String provider, String device, String listenAddress, String pollMode,
                       String maxConcurrency) throws Exception {
        ra.start(bootstrap);
        TestEndpointFactory endpoints = new TestEndpointFactory();
        endpoints.recordPayloads(false);
        endpoints.behaviour(TestEndpointFactory::echo);
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setProvider(provider);
        spec.setDevice(device);
        spec.setListenAddress(listenAddress);
        spec.setListenPort("0");
        spec.setPollMode(pollMode);
        spec.setMaxConcurrency(maxConcurrency);
        spec.setResourceAdapter(ra);
        ra.endpointActivation(endpoints, spec);
        SrqActivation a = ra.activations().getFirst();
        SrqManagedConnectionFactory mcf = new SrqManagedConnectionFactory();
        mcf.setProvider(provider);
        mcf.setDevice(device);
        mcf.setResourceAdapter(ra);
        SrqConnectionFactory factory = (SrqConnectionFactory) mcf.createConnectionFactory(cm);
        connection = factory.getConnection();
        peer = connection.connect(a.listenAddress(), CONNECT_TIMEOUT);
    }

    /** @return the pooled connection's peer connected to the echoing activation */
    public SrqPeer peer() {
        return peer;
    }

    /** Closes the connection, flushes the pool, stops the adapter (and its activation) and the WorkManager. */
    @Override
    public void close() throws Exception {
        try {
            if (connection != null) {
                connection.close();
            }
            cm.flush();
            ra.stop();
        } finally {
            bootstrap.testWorkManager().shutdown();
        }
    }
}
