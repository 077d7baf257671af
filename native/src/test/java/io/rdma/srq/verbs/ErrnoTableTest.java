package io.rdma.srq.verbs;

import io.rdma.srq.api.Errno;
import org.junit.jupiter.api.Test;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The api's errno table against the running glibc: strerrorname_np(3) and strerror(3) for every value. */
class ErrnoTableTest {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle NAME = LINKER.downcallHandle(LINKER.defaultLookup().findOrThrow("strerrorname_np"),
            FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    private static final MethodHandle TEXT = LINKER.downcallHandle(LINKER.defaultLookup().findOrThrow("strerror"),
            FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));

    private static String string(MemorySegment p) {
        return p.address() == 0 ? null : p.reinterpret(Integer.MAX_VALUE).getString(0);
    }

    @Test
    void everyErrnoValueHasGlibcsNameAndText() throws Throwable {
        int known = 0;
        for (int v = 1; v < 134; v++) {
            String glibcName = string((MemorySegment) NAME.invokeExact(v));
            assertEquals(glibcName == null ? "errno " + v : glibcName, Errno.nameOf(v), "name of errno " + v);
            if (glibcName != null) {
                known++;
                assertEquals(string((MemorySegment) TEXT.invokeExact(v)), Errno.of(v).orElseThrow().description(),
                        "strerror of " + glibcName);
            }
        }
        assertEquals(Errno.values().length, known, "glibc names as many values as the table");
    }
}
