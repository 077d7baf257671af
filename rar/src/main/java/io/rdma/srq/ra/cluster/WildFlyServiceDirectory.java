package io.rdma.srq.ra.cluster;

import io.rdma.srq.ra.support.RaLogger;
import org.wildfly.clustering.server.GroupMember;
import org.wildfly.clustering.server.Registration;
import org.wildfly.clustering.server.provider.ServiceProviderRegistrar;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The directory on WildFly's clustering: each endpoint of this node is registered with the
 * server's {@code ServiceProviderRegistrar} (org.wildfly.clustering.server.provider, on the default
 * cache of the {@code server} cache container: replicated on standalone-ha, so every member reads
 * every registration locally) under its {@link ServiceEndpoint#key() key}; the registrar records
 * which members provide a key, and drops a member's registrations when the member leaves the group
 * (the JGroups view change: a kill -9 included, once the failure detection has removed it).
 *
 * <p>The registrar is the value of an on-demand MSC service; {@link ServiceDirectories} installs the
 * service that demands it, which hands it to {@link #started} — until then (and after
 * {@link #stopped}) publications wait here and callers see this node's own only.
 *
 * <p>Readers see a snapshot at most {@link #STALENESS} old: reading the registrar walks its cache's
 * keys, too much for every call.
 */
final class WildFlyServiceDirectory implements ServiceDirectory {
    /** The oldest snapshot of the registrar's content {@link #providers} answers from. */
    static final Duration STALENESS = Duration.ofMillis(250);

    private final String fallbackNode;
    private final LocalPublications publications = new LocalPublications();
    /** Guarded by this. */
    private final Map<ServiceEndpoint, Registration> registered = new HashMap<>();
    private volatile ServiceProviderRegistrar<Object, GroupMember> registrar;
    private volatile Snapshot snapshot;

    /** @param fallbackNode this node's name until the registrar is there */
    WildFlyServiceDirectory(String fallbackNode) {
        this.fallbackNode = fallbackNode;
    }

    private record Snapshot(long at, Map<String, List<ServiceProvider>> byService, List<String> members) {
    }

    /**
     * MSC started the service that requires the registrar: registers what waits.
     *
     * @param value the {@code ServiceProviderRegistrar<Object, GroupMember>}
     */
    @SuppressWarnings("unchecked")
    synchronized void started(Object value) {
        ServiceProviderRegistrar<Object, GroupMember> r = (ServiceProviderRegistrar<Object, GroupMember>) value;
        registrar = r;
        for (ServiceEndpoint e : publications.endpoints()) {
            registered.computeIfAbsent(e, k -> r.register(k.key()));
        }
        snapshot = null;
        RaLogger.LOG.clusterDirectoryReady(describe(), r.getGroup().getMembership().getMembers().size());
    }

    /** The registrar is going away (server stop, adapter stop): its registrations go with it. Idempotent. */
    synchronized void stopped() {
        if (registrar == null) {
            return;
        }
        registrar = null;
        for (Registration r : registered.values()) {
            closeQuietly(r);
        }
        registered.clear();
        snapshot = null;
    }

    @Override
    public synchronized Publication publish(ServiceEndpoint endpoint) {
        if (publications.add(endpoint) && registrar != null) {
            registered.put(endpoint, registrar.register(endpoint.key()));
        }
        snapshot = null;
        return new Publication() {
            private boolean withdrawn;

            @Override
            public void close() {
                synchronized (WildFlyServiceDirectory.this) {
                    if (withdrawn) {
                        return;
                    }
                    withdrawn = true;
                    if (publications.remove(endpoint)) {
                        Registration r = registered.remove(endpoint);
                        if (r != null) {
                            closeQuietly(r);
                        }
                    }
                    snapshot = null;
                }
            }
        };
    }

    private static void closeQuietly(Registration r) {
        try {
            r.close();
        } catch (RuntimeException e) {
            RaLogger.LOG.debugf(e, "withdrawing a registration from the clustering registrar");
        }
    }

    @Override
    public List<ServiceProvider> providers(String service) {
        return snapshot().byService().getOrDefault(service, List.of());
    }

    @Override
    public List<String> members() {
        return snapshot().members();
    }

    @Override
    public String localNode() {
        ServiceProviderRegistrar<Object, GroupMember> r = registrar;
        return r == null ? fallbackNode : r.getGroup().getLocalMember().getName();
    }

    /** {@inheritDoc} Here: twice {@link #STALENESS} plus the local pick margin, for every service (other nodes' readers are not known). */
    @Override
    public Duration withdrawGrace(String service) {
        return STALENESS.multipliedBy(2).plus(LocalServiceDirectory.PICK_MARGIN);
    }

    @Override
    public String describe() {
        ServiceProviderRegistrar<Object, GroupMember> r = registrar;
        return r == null ? "WildFly clustering (registrar not started yet; node " + fallbackNode + ")"
                : "WildFly group " + r.getGroup().getName() + " (node " + localNode() + ")";
    }

    private Snapshot snapshot() {
        Snapshot s = snapshot;
        long now = System.nanoTime();
        if (s != null && now - s.at() < STALENESS.toNanos()) {
            return s;
        }
        s = read(now);
        snapshot = s;
        return s;
    }

    /** Reads the registrar (or, without it, this node's publications). */
    private Snapshot read(long now) {
        ServiceProviderRegistrar<Object, GroupMember> r = registrar;
        Map<String, List<ServiceProvider>> byService = new HashMap<>();
        List<String> members;
        if (r == null) {
            for (ServiceEndpoint e : publications.endpoints()) {
                byService.computeIfAbsent(e.service(), k -> new ArrayList<>()).add(new ServiceProvider(e, fallbackNode));
            }
            members = List.of(fallbackNode);
        } else {
            for (Object key : r.getServices()) {
                ServiceEndpoint e = ServiceEndpoint.parse(key).orElse(null);
                if (e != null) {
                    for (GroupMember m : r.getProviders(key)) {
                        byService.computeIfAbsent(e.service(), k -> new ArrayList<>()).add(new ServiceProvider(e, m.getName()));
                    }
                }
            }
            members = r.getGroup().getMembership().getMembers().stream().map(GroupMember::getName).sorted().toList();
        }
        byService.replaceAll((k, v) -> v.stream().sorted(LocalServiceDirectory.ORDER).toList());
        return new Snapshot(now, Map.copyOf(byService), members);
    }
}
