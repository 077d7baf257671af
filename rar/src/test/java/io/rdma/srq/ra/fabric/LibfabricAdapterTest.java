package io.rdma.srq.ra.fabric;

import io.rdma.srq.api.SrqMessage;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.testing.SoftAdapterTest;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import io.rdma.srq.verbs.fabric.FabricProvider;
import org.junit.jupiter.api.BeforeEach;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The adapter on the fabric provider (libfabric's tcp over loopback), container-less: the pooled
 * connections' definition and the activations both on {@code provider=fabric}, {@code device=tcp};
 * skipped with the reason where libfabric is not installed.
 */
abstract class LibfabricAdapterTest extends SoftAdapterTest {
    static final Duration T = Duration.ofSeconds(10);

    final TestEndpointFactory endpoints = new TestEndpointFactory();

    @BeforeEach
    void onFabric() {
        assumeTrue(new FabricProvider().unavailableReason().isEmpty(),
                () -> "libfabric with tcp MSG endpoints is not installed: " + new FabricProvider().unavailableReason());
        mcf.setProvider("fabric");
        mcf.setDevice("tcp");
    }

    /**
     * Activates {@link #endpoints} on fabric:tcp, listening on every address at a free port: 4 KiB
     * buffers, srqMaxWr 256, srqLimit 0, maxConcurrency 2, then {@code settings}.
     *
     * @param settings more properties
     * @return the activation
     * @throws Exception activation failure
     */
    SrqActivation activate(Consumer<SrqActivationSpec> settings) throws Exception {
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setProvider("fabric");
        spec.setDevice("tcp");
        spec.setListenAddress("0.0.0.0");
        spec.setListenPort("0");
        spec.setBufferSize("4096");
        spec.setSrqMaxWr("256");
        spec.setSrqLimit("0");
        spec.setMaxConcurrency("2");
        settings.accept(spec);
        spec.setResourceAdapter(ra);
        ra.endpointActivation(endpoints, spec);
        return ra.activations().getFirst();
    }

    /** {@return the activation at 127.0.0.{@code host}: every 127/8 address is the loopback, a peer of its own} */
    static InetSocketAddress at(SrqActivation a, int host) {
        return new InetSocketAddress("127.0.0." + host, a.listenAddress().getPort());
    }

    /** {@return the request "call-i", US-ASCII} @param i its number */
    static ByteBuffer request(long i) {
        return ByteBuffer.wrap(("call-" + i).getBytes(StandardCharsets.US_ASCII));
    }

    /** {@return a reply's payload as US-ASCII text} @param m the reply */
    static String text(SrqMessage m) {
        byte[] b = new byte[m.length()];
        m.payload().get(b);
        return new String(b, StandardCharsets.US_ASCII);
    }

    static void waitUntil(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + T.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + ": not within " + T);
            }
            Thread.sleep(5);
        }
    }
}
