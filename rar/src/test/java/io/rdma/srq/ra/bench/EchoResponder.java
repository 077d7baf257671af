package io.rdma.srq.ra.bench;

import java.io.InputStream;

/**
 * The responder of a cross-process round trip: an activation whose listener echoes every request
 * ({@link EchoCallPair#responder}), in a JVM of its own; {@link CallRoundTrip} with
 * {@code -Dbench.remote=PORT} calls it from another. Prints {@code LISTENING ADDRESS:PORT} once
 * active and runs until its stdin closes. Not a test: a main run by
 * {@code it-tests/bench/fabric-round-trip.sh}.
 *
 * <p>Usage: {@code EchoResponder PROVIDER DEVICE ADDRESS PORT}; {@code bench.pollMode} (adaptive),
 * {@code bench.maxConcurrency} (1) as for {@link CallRoundTrip}.
 */
public final class EchoResponder {
    private EchoResponder() {
    }

    /**
     * @param args PROVIDER DEVICE ADDRESS PORT
     * @throws Exception set-up failure
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: EchoResponder PROVIDER DEVICE ADDRESS PORT");
            System.exit(2);
        }
        try (EchoCallPair responder = EchoCallPair.responder(args[0], args[1], args[2], Integer.parseInt(args[3]),
                System.getProperty("bench.pollMode", "adaptive"), System.getProperty("bench.maxConcurrency", "1"))) {
            System.out.println("LISTENING " + args[2] + ":" + args[3]);
            System.out.flush();
            InputStream in = System.in;
            while (in.read() >= 0) {
                // until stdin closes
            }
        }
    }
}
