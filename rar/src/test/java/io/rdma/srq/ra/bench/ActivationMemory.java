package io.rdma.srq.ra.bench;

import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.testing.SoftSender;
import io.rdma.srq.ra.testing.TestWorkManager;
import io.rdma.srq.verbs.soft.SoftProvider;

import java.util.ArrayList;
import java.util.List;

/**
 * Registered memory of one activation (srqMaxWr 1024 × bufferSize 4096 on the soft device) with 1,
 * 16 and 256 connections on its SRQ: the bytes registered (ibv_reg_mr lengths) on the activation's
 * side, i.e. all soft MRs minus the senders' own. Connections that never reply register nothing.
 * Run: the benchmark script, or {@code java -cp ... io.rdma.srq.ra.bench.ActivationMemory}.
 */
public final class ActivationMemory {
    private ActivationMemory() {
    }

    /**
     * @param connections connections to open to one activation
     * @return bytes registered by the activation with that many connections established
     * @throws Exception on a verbs or configuration error
     */
    public static long registeredWith(int connections) throws Exception {
        TestWorkManager wm = new TestWorkManager();
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setProvider("soft");
        spec.setListenAddress("10.0.0.1");
        spec.setListenPort("0");
        spec.setSrqMaxWr("1024");
        spec.setBufferSize("4096");
        long before = SoftProvider.registeredBytes();
        SrqActivation a = SrqActivation.start(wm, (event, loader) -> { }, null, new NoOpEndpointFactory(), spec.config(), spec.recovery());
        List<SoftSender> senders = new ArrayList<>();
        try {
            long senderBytes = 0;
            for (int i = 0; i < connections; i++) {
                SoftSender s = new SoftSender(a.listenAddress(), 64);
                senders.add(s);
                senderBytes += s.registeredBytes();
            }
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (a.statistics().connections() < connections && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            if (a.statistics().connections() != connections) {
                throw new IllegalStateException("only " + a.statistics().connections() + " of " + connections + " connected");
            }
            return SoftProvider.registeredBytes() - before - senderBytes;
        } finally {
            for (SoftSender s : senders) {
                s.close();
            }
            a.stop(java.time.Duration.ofSeconds(10));
            wm.shutdown();
        }
    }

    /**
     * Prints a markdown table of registered bytes for 1, 16 and 256 connections.
     *
     * @param args unused
     * @throws Exception on a verbs error
     */
    public static void main(String[] args) throws Exception {
        System.out.println("| connections on one SRQ | registered bytes (activation) |");
        System.out.println("|---|---|");
        for (int n : new int[] {1, 16, 256}) {
            System.out.printf("| %d | %d |%n", n, registeredWith(n));
        }
    }
}
