package io.rdma.srq.verbs.spi;

import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;

/** Whether a shared library can be loaded by soname, before any binding that needs it is touched. */
public final class NativeLibrary {
    private NativeLibrary() {
    }

    /**
     * {@return whether dlopen(3) finds it (it stays loaded: the global arena)}
     *
     * @param soname e.g. {@code libibverbs.so.1}
     */
    public static boolean loads(String soname) {
        try {
            SymbolLookup.libraryLookup(soname, Arena.global());
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
