package io.rdma.srq.testing;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.spi.ToolProvider;

/**
 * The package dependencies of one module's classes, read with the JDK's own {@code jdeps
 * -verbose:package} (the check the project's house rules name), and the cycles among the packages
 * under a prefix. Used by each module's {@code PackageCyclesTest}.
 */
public final class PackageGraph {
    private final Map<String, Set<String>> edges;

    private PackageGraph(Map<String, Set<String>> edges) {
        this.edges = edges;
    }

    /**
     * @param classes   a module's {@code target/classes}
     * @param prefix    only packages starting with it count (e.g. {@code io.rdma.srq.ra})
     * @param classPath what those classes need to be analysed (may be empty)
     * @return the graph of the packages under {@code prefix}, without edges from a package to itself
     * @throws IllegalStateException if jdeps is missing or fails
     */
    public static PackageGraph of(Path classes, String prefix, String classPath) {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps")
                .orElseThrow(() -> new IllegalStateException("no jdeps in this JDK (" + System.getProperty("java.home") + ")"));
        StringWriter out = new StringWriter();
        List<String> args = new ArrayList<>(List.of("-verbose:package", "-filter:none",
                "--multi-release", String.valueOf(Runtime.version().feature())));
        if (!classPath.isEmpty()) {
            args.addAll(List.of("-cp", classPath));
        }
        args.add(classes.toString());
        int rc = jdeps.run(new PrintWriter(out), new PrintWriter(out), args.toArray(String[]::new));
        if (rc != 0) {
            throw new IllegalStateException("jdeps " + args + " failed (" + rc + "):\n" + out);
        }
        Map<String, Set<String>> edges = new TreeMap<>();
        for (String line : out.toString().split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 3 && f[1].equals("->") && f[0].startsWith(prefix) && f[2].startsWith(prefix)
                    && !f[0].equals(f[2])) {
                edges.computeIfAbsent(f[0], k -> new TreeSet<>()).add(f[2]);
            }
        }
        return new PackageGraph(edges);
    }

    /** @return package → the packages it depends on (under the prefix) */
    public Map<String, Set<String>> edges() {
        return edges;
    }

    /** @return every pair of packages that depend on each other, directly or through others ("a ⇄ b") */
    public List<String> cycles() {
        List<String> found = new ArrayList<>();
        for (String a : edges.keySet()) {
            for (String b : reachable(a)) {
                if (a.compareTo(b) < 0 && reachable(b).contains(a)) {
                    found.add(a + " ⇄ " + b);
                }
            }
        }
        return found;
    }

    private Set<String> reachable(String from) {
        Set<String> seen = new TreeSet<>();
        List<String> todo = new ArrayList<>(edges.getOrDefault(from, Set.of()));
        while (!todo.isEmpty()) {
            String p = todo.removeLast();
            if (seen.add(p)) {
                todo.addAll(edges.getOrDefault(p, Set.of()));
            }
        }
        return seen;
    }
}
