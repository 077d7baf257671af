package io.rdma.srq.ra;

import io.rdma.srq.testing.PackageGraph;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The adapter's packages depend on each other one way: {@code support} ← {@code support.admission} ←
 * {@code management} ← {@code inbound}, {@code outbound} ← {@code ra}, and {@code support} ← {@code cluster}
 * (the service directory) ← {@code inbound}, {@code outbound}; inbound and outbound never on each
 * other; support, admission, management and cluster on neither. Inside inbound, by concern:
 * {@code inbound} (the JavaBean ActivationSpec) → {@code lifecycle} (the activation's state machine,
 * its runs, recovery) → {@code delivery} (poller, delivery, lanes, receive and retained buffers,
 * failure pause, endpoint pool) → {@code connections} (listener, connector, links, half-open and
 * leaving connections, control loop) → {@code events} (faults, application events) and
 * {@code config}; never back.
 */
class PackageCyclesTest {

    @Test
    void theAdapterPackagesDependOneWay() throws Exception {
        Path classes = Path.of(SrqResourceAdapter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        PackageGraph g = PackageGraph.of(classes, "io.rdma.srq.ra", System.getProperty("java.class.path"));
        assertEquals(List.of(), g.cycles(), "package cycles in " + g.edges());
        assertEquals(Set.of(), g.edges().getOrDefault("io.rdma.srq.ra.support", Set.of()), "support depends on no other adapter package");
        assertEquals(Set.of("io.rdma.srq.ra.support"), g.edges().get("io.rdma.srq.ra.support.admission"),
                "admission uses support only (its logger)");
        assertTrue(Set.of("io.rdma.srq.ra.support", "io.rdma.srq.ra.support.admission")
                .containsAll(g.edges().get("io.rdma.srq.ra.management")), "management uses support (and admission's reasons) only");
        assertEquals(Set.of("io.rdma.srq.ra.support"), g.edges().get("io.rdma.srq.ra.cluster"),
                "cluster (the service directory) uses support only");
        Set<String> lower = Set.of("io.rdma.srq.ra.support", "io.rdma.srq.ra.support.admission", "io.rdma.srq.ra.management",
                "io.rdma.srq.ra.cluster");
        Set<String> inbound = g.edges().keySet().stream().filter(p -> p.startsWith("io.rdma.srq.ra.inbound"))
                .flatMap(p -> g.edges().get(p).stream()).filter(p -> !p.startsWith("io.rdma.srq.ra.inbound"))
                .collect(java.util.stream.Collectors.toSet());
        assertTrue(lower.containsAll(inbound), "inbound uses support, admission, management and cluster only: " + inbound);
        String in = "io.rdma.srq.ra.inbound";
        assertOnly(g, in + ".config", Set.of());
        assertOnly(g, in + ".events", Set.of());
        assertOnly(g, in + ".connections", Set.of(in + ".config", in + ".events"));
        assertOnly(g, in + ".delivery", Set.of(in + ".config", in + ".events", in + ".connections"));
        assertOnly(g, in + ".lifecycle", Set.of(in + ".config", in + ".events", in + ".connections", in + ".delivery"));
        assertOnly(g, in, Set.of(in + ".config", in + ".lifecycle", in + ".delivery", in + ".connections", in + ".events"));
        assertTrue(lower.containsAll(g.edges().get("io.rdma.srq.ra.outbound")), "outbound uses support, admission, management and cluster only");
    }

    /** {@code pkg} uses no inbound package but {@code allowed} (and the lower adapter packages). */
    private static void assertOnly(PackageGraph g, String pkg, Set<String> allowed) {
        Set<String> uses = g.edges().getOrDefault(pkg, Set.of()).stream()
                .filter(p -> p.startsWith("io.rdma.srq.ra.inbound")).collect(java.util.stream.Collectors.toSet());
        assertTrue(allowed.containsAll(uses), pkg + " may use " + allowed + " of inbound, uses " + uses);
    }
}
