package io.rdma.srq.ra.inbound.connections;

import io.rdma.srq.ra.cluster.ServiceDirectory;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * Where a {@link Connector} connects: one listener ({@code connectTo=host:port}) or every provider of
 * a service ({@code connectTo=service:NAME}, read from the adapter's service directory each time).
 */
public interface Targets {

    /** {@return the listeners to spread the connections over now, in a stable order; empty: none yet} */
    List<InetSocketAddress> now();

    /** {@return what they are, for logs} */
    String describe();

    /**
     * @param remote a listener's address
     * @return that one listener, always
     */
    static Targets of(InetSocketAddress remote) {
        List<InetSocketAddress> one = List.of(remote);
        return new Targets() {
            @Override
            public List<InetSocketAddress> now() {
                return one;
            }

            @Override
            public String describe() {
                return remote.toString();
            }
        };
    }

    /**
     * @param service   the service name
     * @param directory the adapter's directory
     * @param transport the activation's verbs provider: only providers over it are reachable
     * @param local     this node's name (the soft device reaches only this JVM's listeners)
     * @return the service's providers, as listed now
     */
    static Targets ofService(String service, ServiceDirectory directory, String transport, String local) {
        return new Targets() {
            @Override
            public List<InetSocketAddress> now() {
                return directory.providers(service).stream()
                        .filter(p -> p.endpoint().transport().equals(transport))
                        .filter(p -> !"soft".equals(transport) || p.node().equals(local))
                        .map(p -> p.endpoint().address()).toList();
            }

            @Override
            public String describe() {
                return "service " + service;
            }
        };
    }
}
