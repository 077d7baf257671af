package io.rdma.srq.verbs.ffi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
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
 * at test time, checked the way the library that owns the type promises compatibility
 * ({@link Abi}; each type's rule and its reason are in {@link #RULES}):
 * <ul>
 *   <li>{@link Abi#FIXED} (the default): sizeof, alignof, and offsetof/sizeof of every named member
 *       (members of anonymous unions and structs included, as C names them) are equal;</li>
 *   <li>{@link Abi#GROWS_AT_END}: structs the library extends at the end and versions by a size or
 *       a {@code comp_mask} the caller passes: the generated members are an exact prefix, the
 *       installed struct may be longer, alignment is equal;</li>
 *   <li>{@link Abi#GROWS_AT_START}: {@code struct verbs_context}, which grows towards lower
 *       addresses and is versioned by its {@code sz}: every generated member lies at the same
 *       distance from the end;</li>
 *   <li>{@link Abi#OPAQUE}: glibc internals embedded in rdma-core structs that the project never
 *       reads (the pthread mutex and condition variable inside {@code ibv_context}, {@code ibv_cq},
 *       {@code ibv_srq}, {@code ibv_qp}): size and alignment only, which glibc keeps; their members
 *       move between glibc releases (2.41 dropped {@code __pthread_cond_s.__g_refs}).</li>
 * </ul>
 * The bindings are generated from the oldest headers supported (rdma-core 44, Debian 12), so on a
 * newer rdma-core this test shows that the old layouts are still a correct view of what the new
 * library reads and writes. That the library honours the size the code passes is shown on a real
 * device by {@code io.rdma.srq.verbs.lab.AbiCompatibilityLabTest}.
 *
 * <p>Needs gcc and the -dev headers (libibverbs-dev, librdmacm-dev, librpma-dev); README.md lists them.
 */
class GeneratedLayoutTest {
    private static final List<String> PACKAGES = List.of("ibverbs", "efa", "rdmacm", "rpma");
    private static final List<String> HEADERS = List.of("infiniband/verbs.h", "infiniband/efadv.h",
            "rdma/rdma_cma.h", "librpma.h");
    /** Generated classes named after a typedef of an anonymous struct or union: no struct/union keyword in C. */
    private static final Set<String> TYPEDEFS = Set.of("pthread_mutex_t", "pthread_cond_t", "__atomic_wide_counter");

    /** How a library keeps a struct compatible across its releases, i.e. what this guard compares. */
    enum Abi {
        /** Part of the library's frozen ABI: exact size, alignment and member offsets. */
        FIXED,
        /** Extended at the end, versioned by a length or comp_mask the caller passes: exact prefix. */
        GROWS_AT_END,
        /** Extended towards lower addresses, versioned by a size field: exact suffix. */
        GROWS_AT_START,
        /** A libc internal the project never reads: size and alignment only. */
        OPAQUE
    }

    /** A type's rule and why (header comment, library source or man page it rests on). */
    record Rule(Abi abi, String why) {
    }

    private static final String PTHREAD = "glibc-internal; only its size and alignment are part of the ABI "
            + "(the rdma-core structs embed it; the project never reads it)";

    /**
     * The types that are not {@link Abi#FIXED}. Every other generated type is public ABI of its
     * soname (libibverbs.so.1, librdmacm.so.1, libefa.so.1): applications read its fields from
     * inline code compiled against old headers, so the library never moves them.
     */
    static final Map<String, Rule> RULES = Map.ofEntries(
            Map.entry("struct ibv_port_attr", new Rule(Abi.GROWS_AT_END, "ibv_query_port passes "
                    + "sizeof(struct ibv_port_attr) to verbs_context.query_port (verbs.h ___ibv_query_port); "
                    + "libibverbs' __lib_query_port fills a larger temporary and copies only port_attr_len "
                    + "bytes back (libibverbs/verbs.c); a later rdma-core appended active_speed_ex (56 has it). "
                    + "IbvContext.queryPort passes the generated size")),
            Map.entry("struct efadv_device_attr", new Rule(Abi.GROWS_AT_END, "efadv_query_device(3) takes "
                    + "inlen and fills only the fields that fit in it (providers/efa/verbs.c); "
                    + "EfaDirectVerbs passes the generated size")),
            Map.entry("struct ibv_srq_init_attr_ex", new Rule(Abi.GROWS_AT_END, "versioned by comp_mask "
                    + "(ibv_create_srq_ex(3)): the library reads only the fields whose bit the caller sets")),
            Map.entry("struct ibv_xrcd_init_attr", new Rule(Abi.GROWS_AT_END, "versioned by comp_mask "
                    + "(ibv_open_xrcd(3)): the library reads only the fields whose bit the caller sets")),
            Map.entry("struct verbs_context", new Rule(Abi.GROWS_AT_START, "verbs.h: new ops go at the top "
                    + "(\"grows up\"), sz is immediately before the ibv_context that is its last member; "
                    + "verbs_get_ctx_op takes an op only if sz covers it, and so does ContextOps")),
            Map.entry("pthread_mutex_t", new Rule(Abi.OPAQUE, PTHREAD)),
            Map.entry("pthread_cond_t", new Rule(Abi.OPAQUE, PTHREAD)),
            Map.entry("struct __pthread_mutex_s", new Rule(Abi.OPAQUE, PTHREAD)),
            Map.entry("struct __pthread_cond_s", new Rule(Abi.OPAQUE, PTHREAD)),
            Map.entry("struct __pthread_internal_list", new Rule(Abi.OPAQUE, PTHREAD)),
            Map.entry("__atomic_wide_counter", new Rule(Abi.OPAQUE, PTHREAD)));

    /** One type to check: the C spelling, the generated layout. */
    record Type(String pkg, String javaName, String cName, GroupLayout layout) {
        Abi abi() {
            Rule r = RULES.get(cName);
            return r == null ? Abi.FIXED : r.abi();
        }
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
            if (t.abi() == Abi.OPAQUE) {
                continue;
            }
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
    Stream<DynamicTest> everyGeneratedLayoutIsCompatibleWithTheInstalledHeaders() {
        return types.stream().map(t -> DynamicTest.dynamicTest(t.pkg() + ": " + t.cName() + " (" + t.abi() + ")", () -> {
            String key = t.cName().replace(' ', '_');
            String[] sizeAlign = measured.get(key).split(" ");
            long size = Long.parseLong(sizeAlign[0]);
            long generated = t.layout().byteSize();
            assertEquals(t.layout().byteAlignment(), Long.parseLong(sizeAlign[1]), "_Alignof of " + t.cName());
            if (t.abi() == Abi.FIXED || t.abi() == Abi.OPAQUE) {
                assertEquals(generated, size, "sizeof of " + t.cName());
            } else {
                assertTrue(size >= generated, "sizeof of " + t.cName() + " is " + size + ", less than the generated "
                        + generated + ": the installed library is older than the headers the bindings came from");
            }
            if (t.abi() == Abi.OPAQUE) {
                return;
            }
            for (Map.Entry<String, Long> m : members(t.layout()).entrySet()) {
                long memberSize = member(t.layout(), m.getKey()).byteSize();
                String[] offsetSize = measured.get(key + "." + m.getKey()).split(" ");
                long offset = Long.parseLong(offsetSize[0]);
                String what = t.cName() + "." + m.getKey();
                assertEquals(memberSize, Long.parseLong(offsetSize[1]), "sizeof of " + what);
                if (t.abi() == Abi.GROWS_AT_START) {
                    assertEquals(generated - m.getValue(), size - offset, "distance of " + what + " from the end");
                } else {
                    assertEquals(m.getValue(), offset, "offsetof of " + what);
                }
            }
        }));
    }

    @Test
    void everyRuleNamesAGeneratedType() {
        Set<String> generated = new java.util.HashSet<>();
        types.forEach(t -> generated.add(t.cName()));
        for (String name : RULES.keySet()) {
            assertTrue(generated.contains(name), "RULES names " + name + ", which is not generated (stale rule)");
        }
    }
}
