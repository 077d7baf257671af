package io.rdma.srq.verbs.fabric;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * Loads libfabric.so.1 into the JVM once, keeping the JVM's signal handlers.
 *
 * <p>Debian's libfabric1 links libpsm_infinipath.so.1, libpsm2.so.2 and libinfinipath.so.4; loading
 * it runs a library constructor that installs its own handler for SIGINT, SIGILL, SIGABRT, SIGBUS,
 * SIGSEGV and SIGTERM (measured with sigaction(2) before and after dlopen on libfabric 1.17.0-3;
 * docs/driver-notes.md, note 26). The JVM takes SIGSEGV for its own null checks and safepoints and
 * SIGTERM for its shutdown hooks: with that handler in place the JVM dies at its next implicit null
 * check ("terminated with signal 11"). So the load here reads every handler with sigaction(2) first,
 * loads the library, and puts back each one that changed — the library's providers (tcp, verbs)
 * need none of them. Every use of the generated binding ({@code io.rdma.srq.verbs.ffi.fabric},
 * whose class initializer opens the library) goes through {@link #load()} first;
 * {@link FabricOps} does it in its own initializer.
 */
public final class FabricLibrary {
    /** The soname, the same in libfabric 1.x and 2.x. */
    public static final String SONAME = "libfabric.so.1";
    /** glibc's {@code struct sigaction} on x86_64 and aarch64 is 152 bytes; more room costs nothing. */
    private static final long SIGACTION_BYTES = 256;
    private static final int SIGNALS = 64;

    private static boolean tried;
    private static boolean loaded;
    private static List<Integer> restored = List.of();

    private FabricLibrary() {
    }

    /**
     * Loads the library (once; later calls return the first answer), keeping the JVM's handlers.
     *
     * @return whether libfabric.so.1 is installed and loaded
     */
    public static synchronized boolean load() {
        if (tried) {
            return loaded;
        }
        tried = true;
        Linker linker = Linker.nativeLinker();
        MethodHandle sigaction = linker.downcallHandle(linker.defaultLookup().findOrThrow("sigaction"),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                        ValueLayout.ADDRESS));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment[] before = read(sigaction, arena);
            try {
                SymbolLookup.libraryLookup(SONAME, Arena.global()); // kept loaded for the JVM's life
                loaded = true;
            } catch (IllegalArgumentException absent) {
                return false;
            } finally {
                restored = restore(sigaction, arena, before);
            }
        }
        return true;
    }

    /** {@return the signals whose handler the load put back (empty before {@link #load()} or when none changed)} */
    public static synchronized List<Integer> restoredSignals() {
        return restored;
    }

    private static MemorySegment[] read(MethodHandle sigaction, Arena arena) {
        MemorySegment[] handlers = new MemorySegment[SIGNALS + 1];
        for (int signal = 1; signal <= SIGNALS; signal++) {
            MemorySegment old = arena.allocate(SIGACTION_BYTES, 8);
            if (call(sigaction, signal, MemorySegment.NULL, old) == 0) {
                handlers[signal] = old;
            }
        }
        return handlers;
    }

    private static List<Integer> restore(MethodHandle sigaction, Arena arena, MemorySegment[] before) {
        List<Integer> changed = new ArrayList<>();
        MemorySegment now = arena.allocate(SIGACTION_BYTES, 8);
        for (int signal = 1; signal <= SIGNALS; signal++) {
            MemorySegment saved = before[signal];
            if (saved == null || call(sigaction, signal, MemorySegment.NULL, now) != 0) {
                continue;
            }
            if (now.get(ValueLayout.ADDRESS, 0).address() != saved.get(ValueLayout.ADDRESS, 0).address()) {
                call(sigaction, signal, saved, MemorySegment.NULL);
                changed.add(signal);
            }
        }
        return List.copyOf(changed);
    }

    private static int call(MethodHandle sigaction, int signal, MemorySegment act, MemorySegment old) {
        try {
            return (int) sigaction.invokeExact(signal, act, old);
        } catch (Throwable t) {
            throw new IllegalStateException("sigaction(2) downcall", t);
        }
    }
}
