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

import java.net.InetSocketAddress;
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
    private SrqConnectionFactory factory;
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

    /**
     * Starts the adapter and only the echoing activation, on {@code listenAddress}:{@code port}: the
     * responder of a cross-process round trip ({@link EchoResponder}; the caller is
     * {@link #connectTo}).
     *
     * @param provider       verbs provider
     * @param device         device name ("" = the provider's first)
     * @param listenAddress  the listen address
     * @param port           the listen port
     * @param pollMode       the activation's pollMode
     * @param maxConcurrency the activation's maxConcurrency
     * @return the responder; close it
     * @throws Exception activation failure
     */
    public static EchoCallPair responder(String provider, String device, String listenAddress, int port,
                                         String pollMode, String maxConcurrency) throws Exception {
        EchoCallPair pair = new EchoCallPair();
        try {
            pair.ra.start(pair.bootstrap);
            pair.activate(provider, device, listenAddress, port, pollMode, maxConcurrency);
            return pair;
        } catch (Exception | Error e) {
            pair.close();
            throw e;
        }
    }

    /**
     * A pooled connection's peer connected to an echoing activation elsewhere (another process).
     *
     * @param provider verbs provider
     * @param device   device name ("" = the provider's first)
     * @param remote   the activation's address
     * @return the caller side; close it
     * @throws Exception connection failure
     */
    public static EchoCallPair connectTo(String provider, String device, InetSocketAddress remote) throws Exception {
        EchoCallPair pair = new EchoCallPair();
        try {
            pair.ra.start(pair.bootstrap);
            pair.connect(provider, device, remote);
            return pair;
        } catch (Exception | Error e) {
            pair.close();
            throw e;
        }
    }

    private void start(String provider, String device, String listenAddress, String pollMode,
                       String maxConcurrency) throws Exception {
        ra.start(bootstrap);
        SrqActivation a = activate(provider, device, listenAddress, 0, pollMode, maxConcurrency);
        connect(provider, device, a.listenAddress());
    }

    private SrqActivation activate(String provider, String device, String listenAddress, int port, String pollMode,
                                   String maxConcurrency) throws Exception {
        TestEndpointFactory endpoints = new TestEndpointFactory();
        endpoints.recordPayloads(false);
        endpoints.behaviour(TestEndpointFactory::echo);
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setProvider(provider);
        spec.setDevice(device);
        spec.setListenAddress(listenAddress);
        spec.setListenPort(String.valueOf(port));
        spec.setPollMode(pollMode);
        spec.setMaxConcurrency(maxConcurrency);
        spec.setResourceAdapter(ra);
        ra.endpointActivation(endpoints, spec);
        return ra.activations().getFirst();
    }

    /**
     * Starts the adapter with no activation: the sending side of a cross-process message rate
     * ({@link AdapterRateSender}), whose connections {@link #newConnection} opens.
     *
     * @param provider verbs provider
     * @param device   device name ("" = the provider's first)
     * @return the sending side; close it
     * @throws Exception adapter start failure
     */
    public static EchoCallPair sender(String provider, String device) throws Exception {
        EchoCallPair pair = new EchoCallPair();
        try {
            pair.ra.start(pair.bootstrap);
            pair.factory = pair.factory(provider, device);
            return pair;
        } catch (Exception | Error e) {
            pair.close();
            throw e;
        }
    }

    /**
     * @return a new pooled connection of the {@link #sender} side's connection factory
     * @throws Exception from the pool
     */
    public SrqConnection newConnection() throws Exception {
        return factory.getConnection();
    }

    /**
     * Destroys the pool's free managed connections, and with them their QPs: the peers a remote
     * activation sees disconnect.
     *
     * @throws Exception from the managed connections' destroy
     */
    public void flushPool() throws Exception {
        cm.flush();
    }

    private SrqConnectionFactory factory(String provider, String device) throws Exception {
        SrqManagedConnectionFactory mcf = new SrqManagedConnectionFactory();
        mcf.setProvider(provider);
        mcf.setDevice(device);
        mcf.setResourceAdapter(ra);
        return (SrqConnectionFactory) mcf.createConnectionFactory(cm);
    }

    private void connect(String provider, String device, InetSocketAddress remote) throws Exception {
        factory = factory(provider, device);
        connection = factory.getConnection();
        peer = connection.connect(remote, CONNECT_TIMEOUT);
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
