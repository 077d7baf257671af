package io.rdma.srq.ra.inbound.connections;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * The rdma_cm listen addresses the activations of this JVM hold, by owner, so that a second
 * activation on an address and port another one listens on fails with EADDRINUSE naming that
 * activation, not only with what rdma_bind_addr(3) says (which names nobody). Two addresses
 * collide as rdma_cm's port space makes them (kernel cma.c, cma_check_port): the same port and
 * the same address, or the same port and either is the wildcard. JVM-wide, as the kernel's port
 * space is per network namespace: two resource adapters in one server collide too. Thread-safe.
 */
final class ListenerRegistry {
    private static final Map<InetSocketAddress, String> HELD = new HashMap<>();

    private ListenerRegistry() {
    }

    /**
     * Claims {@code address} for {@code owner}.
     *
     * @param address the listen address; port 0 (any free port) claims nothing until the port is known
     * @param owner   the activation's name, for the other's message
     * @return the claim to release, or null for port 0
     * @throws VerbsException EADDRINUSE naming the activation that holds the address (or an address
     *                        it collides with)
     */
    static Claim claim(InetSocketAddress address, String owner) throws VerbsException {
        if (address.getPort() == 0) {
            return null;
        }
        synchronized (HELD) {
            for (Map.Entry<InetSocketAddress, String> e : HELD.entrySet()) {
                InetSocketAddress held = e.getKey();
                if (held.getPort() == address.getPort() && (held.getAddress().isAnyLocalAddress()
                        || address.getAddress().isAnyLocalAddress() || held.getAddress().equals(address.getAddress()))) {
                    throw new VerbsException("rdma_bind_addr", Errno.EADDRINUSE, "listen address " + format(address)
                            + " of activation " + owner + " is taken: activation " + e.getValue() + " listens on "
                            + format(held) + " (set listenPort, or listen=false for an activation that only uses connectTo)");
                }
            }
            HELD.put(address, owner);
            return new Claim(address);
        }
    }

    private static String format(InetSocketAddress a) {
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    /** One held address; {@link #close} releases it. Idempotent. */
    static final class Claim implements AutoCloseable {
        private final InetSocketAddress address;
        private boolean released;

        private Claim(InetSocketAddress address) {
            this.address = address;
        }

        @Override
        public void close() {
            synchronized (HELD) {
                if (!released) {
                    released = true;
                    HELD.remove(address);
                }
            }
        }
    }
}
