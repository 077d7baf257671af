package io.rdma.srq.ra.cluster;

/**
 * A published endpoint and the cluster member (node) that publishes it.
 *
 * @param endpoint the endpoint
 * @param node     the member's name (WildFly: its {@code jboss.node.name}; without a cluster: this JVM's)
 */
public record ServiceProvider(ServiceEndpoint endpoint, String node) {
}
