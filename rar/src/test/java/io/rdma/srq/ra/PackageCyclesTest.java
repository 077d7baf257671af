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
 * {@code management} ← {@code inbound}, {@code outbound} ← {@code ra}; inbound and outbound never on
 * each other; support, admission and management on neither.
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
        Set<String> lower = Set.of("io.rdma.srq.ra.support", "io.rdma.srq.ra.support.admission", "io.rdma.srq.ra.management");
        assertEquals(lower, g.edges().get("io.rdma.srq.ra.inbound"), "inbound uses support, admission and management only");
        assertTrue(lower.containsAll(g.edges().get("io.rdma.srq.ra.outbound")), "outbound uses support, admission and management only");
    }
}
