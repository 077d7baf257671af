package io.rdma.srq.verbs.ffi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.UnionLayout;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The layout guard: every struct and union jextract generated (all four packages under
 * {@code io.rdma.srq.verbs.ffi}) against the headers installed on this machine, compiled with gcc
 * at test time. For each type: sizeof and alignof; for each named member (members of anonymous
 * unions and structs included, as C names them): offsetof and sizeof. Any mismatch fails, so
 * bindings generated from other headers than the ones the libraries were built with are caught.
 *
 * <p>Needs gcc and the -dev headers (libibverbs-dev, librdmacm-dev, librpma-dev); README.md lists them.
 */
class GeneratedLayoutTest {
    private static final List<String> PACKAGES = List.of("ibverbs", "efa", "rdmacm", "rpma");
    private static final List<String> HEADERS = List.of("infiniband/verbs.h", "infiniband/efadv.h",
            "rdma/rdma_cma.h", "librpma.h");
    /** Generated classes named after a typedef of an anonymous struct or union: no struct/union keyword in C. */
    private static final Set<String> TYPEDEFS = Set.of("pthread_mutex_t", "pthread_cond_t", "__atomic_wide_counter");

    /** One type to check: the C spelling, the generated layout. */
    record Type(String pkg, String javaName, String cName, GroupLayout layout) {
    }

    /** One C value: "type member" or "type" → "offset size" / "size align". */
    private static Map<String, String> measured;
    private static List<Type> types;

    @BeforeAll
    static void compileAndRun(@TempDir Path dir) throws Exception {
        types = discover();
        assertFalse(types.isEmpty(), "no generated layouts found");
        StringBuilder c = new StringBuilder("#include <stddef.h>\n#include <stdio.h>\n");
        for (String h : HEADERS) {
            c.append("#include <").append(h).append(">\n");
        }
        c.append("int main(void) {\n");
        for (Type t : types) {
            c.append("  printf(\"%s %zu %zu\\n\", \"").append(t.cName().replace(' ', '_')).append("\", sizeof(")
                    .append(t.cName()).append("), _Alignof(").append(t.cName()).append("));\n");
            for (Map.Entry<String, Long> m : members(t.layout()).entrySet()) {
                c.append("  printf(\"%s %zu %zu\\n\", \"").append(t.cName().replace(' ', '_')).append('.')
                        .append(m.getKey()).append("\", offsetof(").append(t.cName()).append(", ").append(m.getKey())
                        .append("), sizeof(((").append(t.cName()).append(" *)0)->").append(m.getKey()).append("));\n");
            }
        }
        c.append("  return 0;\n}\n");
        Path src = dir.resolve("layouts.c");
        Files.writeString(src, c);
        Path exe = dir.resolve("layouts");
        run(dir, "gcc", "-std=gnu11", "-o", exe.toString(), src.toString());
        measured = new HashMap<>();
        for (String line : run(dir, exe.toString()).split("\n")) {
            String[] f = line.split(" ", 2);
            measured.put(f[0], f[1]);
        }
    }

    private static String run(Path dir, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), command[0] + " timed out");
        assertEquals(0, p.exitValue(), () -> String.join(" ", command) + " failed (gcc and the headers of "
                + "libibverbs-dev, librdmacm-dev and librpma-dev are needed, see README.md):\n" + out);
        return out;
    }

    /** Every generated class in the ffi packages that declares its own {@code layout()}. */
    private static List<Type> discover() throws IOException, URISyntaxException, ReflectiveOperationException {
        List<Type> found = new ArrayList<>();
        for (String pkg : PACKAGES) {
            String path = "io/rdma/srq/verbs/ffi/" + pkg;
            URL url = GeneratedLayoutTest.class.getClassLoader().getResource(path);
            assertNotNull(url, path);
            List<Path> classes;
            try (Stream<Path> s = Files.list(Path.of(url.toURI()))) {
                classes = s.filter(f -> f.toString().endsWith(".class") && !f.getFileName().toString().contains("$"))
                        .sorted().toList();
            }
            for (Path f : classes) {
                String simple = f.getFileName().toString().replace(".class", "");
                Class<?> cls = Class.forName("io.rdma.srq.verbs.ffi." + pkg + "." + simple, false,
                        GeneratedLayoutTest.class.getClassLoader());
                Method layout;
                try {
                    layout = cls.getDeclaredMethod("layout");
                } catch (NoSuchMethodException notAType) {
                    continue;
                }
                GroupLayout g = (GroupLayout) layout.invoke(null);
                String cName = TYPEDEFS.contains(simple) ? simple
                        : (g instanceof UnionLayout ? "union " : "struct ") + simple;
                found.add(new Type(pkg, simple, cName, g));
            }
        }
        return found;
    }

    /** Named members → offset; members of anonymous groups are flattened, as C names them. */
    private static Map<String, Long> members(GroupLayout g) {
        Map<String, Long> out = new LinkedHashMap<>();
        collect(g, 0, out);
        return out;
    }

    private static void collect(GroupLayout g, long base, Map<String, Long> out) {
        long offset = 0;
        for (MemoryLayout m : g.memberLayouts()) {
            long at = g instanceof StructLayout ? offset : 0;
            if (!(m instanceof PaddingLayout) && m.name().isPresent()) {
                String name = m.name().get();
                if (name.startsWith("$anon$") && m instanceof GroupLayout anon) {
                    collect(anon, base + at, out);
                } else {
                    out.put(name, base + at);
                }
            }
            offset += m.byteSize();
        }
    }

    private static MemoryLayout member(GroupLayout g, String name) {
        for (MemoryLayout m : g.memberLayouts()) {
            if (m.name().filter(name::equals).isPresent()) {
                return m;
            }
            if (m instanceof GroupLayout anon && m.name().filter(n -> n.startsWith("$anon$")).isPresent()) {
                MemoryLayout inner = member(anon, name);
                if (inner != null) {
                    return inner;
                }
            }
        }
        return null;
    }

    @TestFactory
    Stream<DynamicTest> everyGeneratedLayoutMatchesTheInstalledHeaders() {
        return types.stream().map(t -> DynamicTest.dynamicTest(t.pkg() + ": " + t.cName(), () -> {
            String key = t.cName().replace(' ', '_');
            assertEquals(measured.get(key), t.layout().byteSize() + " " + t.layout().byteAlignment(),
                    "sizeof/_Alignof of " + t.cName());
            for (Map.Entry<String, Long> m : members(t.layout()).entrySet()) {
                long size = member(t.layout(), m.getKey()).byteSize();
                assertEquals(measured.get(key + "." + m.getKey()), m.getValue() + " " + size,
                        "offsetof/sizeof of " + t.cName() + "." + m.getKey());
            }
        }));
    }
}
