package io.rdma.srq.verbs.fabric;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Loading libfabric keeps the JVM's signal handlers (driver note 26): Debian's libfabric1 pulls in
 * libinfinipath, whose constructor takes SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGINT and SIGTERM — the
 * JVM's own — and a JVM without its SIGSEGV handler dies at its next implicit null check. Whatever
 * ran before, after the load each of the JVM's signals is handled by code in libjvm.so (dladdr(3)
 * names the library a handler's address lies in).
 */
class LibfabricSignalHandlersTest {
    private static final Map<String, Integer> JVM_SIGNALS = new LinkedHashMap<>();

    static {
        JVM_SIGNALS.put("SIGILL", 4);
        JVM_SIGNALS.put("SIGBUS", 7);
        JVM_SIGNALS.put("SIGFPE", 8);
        JVM_SIGNALS.put("SIGSEGV", 11);
        JVM_SIGNALS.put("SIGINT", 2);
        JVM_SIGNALS.put("SIGTERM", 15);
    }

    /** @return for each signal, the file name of the library its handler lies in (or what else it is) */
    private static Map<String, String> handlerLibraries() throws Throwable {
        Linker linker = Linker.nativeLinker();
        MethodHandle sigaction = linker.downcallHandle(linker.defaultLookup().findOrThrow("sigaction"),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
        MethodHandle dladdr = linker.downcallHandle(linker.defaultLookup().findOrThrow("dladdr"),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
        Map<String, String> libraries = new LinkedHashMap<>();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment old = arena.allocate(256, 8);
            MemorySegment info = arena.allocate(32, 8); // Dl_info: dli_fname, dli_fbase, dli_sname, dli_saddr
            for (Map.Entry<String, Integer> s : JVM_SIGNALS.entrySet()) {
                assertEquals(0, (int) sigaction.invokeExact((int) s.getValue(), MemorySegment.NULL, old));
                MemorySegment handler = old.get(ValueLayout.ADDRESS, 0);
                String where;
                if (handler.address() <= 1) {
                    where = handler.address() == 0 ? "SIG_DFL" : "SIG_IGN";
                } else if ((int) dladdr.invokeExact(handler, info) == 0) {
                    where = "unknown";
                } else {
                    String path = info.get(ValueLayout.ADDRESS, 0).reinterpret(4096).getString(0);
                    where = path.substring(path.lastIndexOf('/') + 1);
                }
                libraries.put(s.getKey(), where);
            }
        }
        return libraries;
    }

    @Test
    void afterLoadingLibfabricTheJvmStillHandlesItsSignals() throws Throwable {
        assumeTrue(FabricLibrary.load(), "libfabric.so.1 is not installed (Debian package libfabric1)");
        Map<String, String> expected = new LinkedHashMap<>();
        JVM_SIGNALS.keySet().forEach(s -> expected.put(s, "libjvm.so"));
        assertEquals(expected, handlerLibraries(), "put back at the load: " + FabricLibrary.restoredSignals());
    }
}
