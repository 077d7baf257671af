package io.rdma.srq.verbs;

import io.rdma.srq.testing.PackageGraph;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The verbs layer's packages depend on each other one way: verbs ← spi ← ibverbs, soft (and ffi). */
class PackageCyclesTest {

    @Test
    void thePackagesOfTheVerbsLayerHaveNoCycle() throws Exception {
        Path classes = Path.of(VerbsObject.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        PackageGraph g = PackageGraph.of(classes, "io.rdma.srq.verbs", System.getProperty("java.class.path"));
        assertTrue(g.edges().containsKey("io.rdma.srq.verbs.soft"), "jdeps saw the packages: " + g.edges());
        assertEquals(java.util.List.of(), g.cycles(), "package cycles in " + g.edges());
    }
}
