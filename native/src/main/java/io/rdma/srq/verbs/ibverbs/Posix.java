package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.time.Duration;

/**
 * poll(2) on one file descriptor: how every blocking verbs wait (async events, completion
 * channels) is bounded by a timeout. libc is not one of the jextract-bound headers; this one call
 * is declared here.
 */
final class Posix {
    private static final StructLayout POLLFD = MemoryLayout.structLayout(
            ValueLayout.JAVA_INT.withName("fd"),
            ValueLayout.JAVA_SHORT.withName("events"),
            ValueLayout.JAVA_SHORT.withName("revents"));
    private static final short POLLIN = 0x1;
    private static final MethodHandle POLL = NativeCall.capturing(
            Linker.nativeLinker().defaultLookup().findOrThrow("poll"),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));

    private static final int F_GETFL = 3;
    private static final int F_SETFL = 4;
    private static final int O_NONBLOCK = 04000;
    private static final MethodHandle FCNTL = NativeCall.capturing(
            Linker.nativeLinker().defaultLookup().findOrThrow("fcntl"),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT),
            Linker.Option.firstVariadicArg(2));

    private Posix() {
    }

    /**
     * fcntl(2) O_NONBLOCK on {@code fd}, so a read after poll(2) never blocks when another thread
     * consumed the event first (ibv_get_async_event(3) documents this mode).
     *
     * @param fd the descriptor
     * @throws VerbsException the errno of fcntl
     */
    static void setNonBlocking(int fd) throws VerbsException {
        int flags = NativeCall.count("fcntl", "F_GETFL fd " + fd, FCNTL, fd, F_GETFL, 0);
        NativeCall.count("fcntl", "F_SETFL fd " + fd, FCNTL, fd, F_SETFL, flags | O_NONBLOCK);
    }

    /**
     * Waits until {@code fd} is readable.
     *
     * @param fd      the descriptor
     * @param timeout the longest wait (capped at Integer.MAX_VALUE ms)
     * @return whether it is readable; false on timeout or on EINTR
     * @throws VerbsException the errno of poll(2) other than EINTR
     */
    static boolean readable(int fd, Duration timeout) throws VerbsException {
        int millis = (int) Math.min(Integer.MAX_VALUE, Math.max(0, timeout.toMillis()));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pfd = arena.allocate(POLLFD);
            pfd.set(ValueLayout.JAVA_INT, 0, fd);
            pfd.set(ValueLayout.JAVA_SHORT, 4, POLLIN);
            try {
                return NativeCall.count("poll", "fd " + fd, POLL, pfd, 1L, millis) > 0;
            } catch (VerbsException e) {
                if (e.is(Errno.EINTR)) {
                    return false;
                }
                throw e;
            }
        }
    }
}
