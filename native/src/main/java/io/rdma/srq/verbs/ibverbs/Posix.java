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

    /** The longest single poll(2): a close of the owner waits at most this long for a waiter. */
    static final long SLICE_MILLIS = 50;

    /**
     * Waits until {@code fd} is readable, in slices of at most {@link #SLICE_MILLIS}. Each slice holds
     * {@code owner}'s scope (the pollfd is passed as a segment of that scope), so the owner cannot be
     * destroyed, and its fd closed and reused, while poll(2) watches it; between slices a close goes
     * through and the next slice fails with IllegalStateException.
     *
     * @param fd      the descriptor
     * @param owner   the scope of the object owning the fd
     * @param timeout the longest wait in total
     * @return whether it is readable; false on timeout or on EINTR
     * @throws VerbsException        the errno of poll(2) other than EINTR
     * @throws IllegalStateException when the owner was closed
     */
    static boolean readable(int fd, Arena owner, Duration timeout) throws VerbsException {
        long deadline = System.nanoTime() + Math.max(0, timeout.toNanos());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cell = arena.allocate(POLLFD);
            while (true) {
                long left = Math.max(0, (deadline - System.nanoTime()) / 1_000_000);
                int slice = (int) Math.min(SLICE_MILLIS, left);
                MemorySegment pfd = cell.reinterpret(owner, null);
                pfd.set(ValueLayout.JAVA_INT, 0, fd);
                pfd.set(ValueLayout.JAVA_SHORT, 4, POLLIN);
                pfd.set(ValueLayout.JAVA_SHORT, 6, (short) 0);
                try {
                    if (NativeCall.count("poll", "fd " + fd, POLL, pfd, 1L, slice) > 0) {
                        return true;
                    }
                } catch (VerbsException e) {
                    if (!e.is(Errno.EINTR)) {
                        throw e;
                    }
                }
                if (slice == 0 || System.nanoTime() >= deadline) {
                    return false;
                }
            }
        }
    }
}
