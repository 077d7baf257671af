package io.rdma.srq.ra.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This node's publications, counted per endpoint (two activations may publish one service on one
 * node over one transport — e.g. two MDB classes on two ports — but not over two transports: that is
 * a clash, refused naming both).
 */
final class LocalPublications {
    private final Map<ServiceEndpoint, Integer> published = new ConcurrentHashMap<>();

    /**
     * @param endpoint the endpoint to add
     * @return whether it is new (its first publication on this node)
     * @throws IllegalArgumentException the service is published here over another transport
     */
    synchronized boolean add(ServiceEndpoint endpoint) {
        for (ServiceEndpoint e : published.keySet()) {
            if (e.service().equals(endpoint.service()) && !e.transport().equals(endpoint.transport())) {
                throw new IllegalArgumentException("service '" + endpoint.service() + "' is published on this node "
                        + "already by an activation on the " + e.transport() + " provider (" + e + "); an activation on "
                        + endpoint.transport() + " cannot publish it too: give it another serviceName");
            }
        }
        return published.merge(endpoint, 1, Integer::sum) == 1;
    }

    /**
     * @param endpoint the endpoint to take away (once per {@link #add})
     * @return whether it was its last publication on this node
     */
    synchronized boolean remove(ServiceEndpoint endpoint) {
        Integer left = published.computeIfPresent(endpoint, (e, n) -> n == 1 ? null : n - 1);
        return left == null;
    }

    /** {@return the endpoints published on this node now} */
    List<ServiceEndpoint> endpoints() {
        return new ArrayList<>(published.keySet());
    }
}
