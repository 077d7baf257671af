package io.rdma.srq.ra.cluster;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The directory of one JVM: what its activations publish, seen by its own callers at once. The
 * adapter's directory where the server has no clustering registrar (WildFly's standalone.xml, other
 * containers) and in container-less use.
 */
public final class LocalServiceDirectory implements ServiceDirectory {
    /** Orders providers by node, then address (round robin walks them in this order). */
    static final Comparator<ServiceProvider> ORDER = Comparator.comparing(ServiceProvider::node)
            .thenComparing(p -> p.endpoint().address().getAddress().getHostAddress())
            .thenComparingInt(p -> p.endpoint().address().getPort());
    private final String node;
    /** The margin for a call that picked a provider an instant before it withdrew. */
    static final Duration PICK_MARGIN = Duration.ofMillis(100);
    private final LocalPublications publications = new LocalPublications();
    /** Services callers have looked up. */
    private final java.util.Set<String> asked = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** @param node this JVM's name in {@link #members()} */
    public LocalServiceDirectory(String node) {
        this.node = node;
    }

    @Override
    public Publication publish(ServiceEndpoint endpoint) {
        publications.add(endpoint);
        AtomicBoolean withdrawn = new AtomicBoolean();
        return () -> {
            if (withdrawn.compareAndSet(false, true)) {
                publications.remove(endpoint);
            }
        };
    }

    @Override
    public List<ServiceProvider> providers(String service) {
        asked.add(service);
        return publications.endpoints().stream().filter(e -> e.service().equals(service))
                .map(e -> new ServiceProvider(e, node)).sorted(ORDER).toList();
    }

    @Override
    public List<String> members() {
        return List.of(node);
    }

    @Override
    public String localNode() {
        return node;
    }

    /**
     * {@inheritDoc} Here: {@link #PICK_MARGIN} for a service a caller has looked up (a call may have
     * picked it an instant before), else zero — readers see a withdrawal at once.
     */
    @Override
    public Duration withdrawGrace(String service) {
        return asked.contains(service) ? PICK_MARGIN : Duration.ZERO;
    }

    @Override
    public String describe() {
        return "this JVM (node " + node + ", no cluster)";
    }
}
