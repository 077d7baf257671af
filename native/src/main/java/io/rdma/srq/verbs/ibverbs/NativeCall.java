package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * Calls into libibverbs (and libc) that report failure through {@code errno}, for the creation and
 * control paths. Handles are built once from the jextract-generated address and descriptor with
 * {@code Linker.Option.captureCallState("errno")}, because a NULL-returning {@code ibv_create_*}
 * sets errno and nothing else tells why (driver note 10). Calls that return the errno value
 * themselves (ibv_modify_srq, ibv_query_srq, ibv_destroy_*) are read through {@link #status}.
 *
 * <p>Not for the hot path: poll and post go through the provider's function pointers directly.
 */
final class NativeCall {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final Linker.Option CAPTURE = Linker.Option.captureCallState("errno");
    private static final StructLayout STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private NativeCall() {
    }

    /**
     * {@return a handle taking (errnoState, args...)}
     *
     * @param address    an exported function
     * @param descriptor its descriptor
     * @param more       further linker options (e.g. firstVariadicArg)
     */
    static MethodHandle capturing(MemorySegment address, FunctionDescriptor descriptor, Linker.Option... more) {
        Linker.Option[] options = java.util.Arrays.copyOf(more, more.length + 1);
        options[more.length] = CAPTURE;
        return LINKER.downcallHandle(address, descriptor, options);
    }

    /**
     * {@return a handle taking (functionPointer, errnoState, args...)}
     *
     * @param descriptor the descriptor of a function pointer
     */
    static MethodHandle capturingPointer(FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(descriptor, CAPTURE);
    }

    /**
     * A call returning a pointer that is NULL on failure, errno set.
     *
     * @param operation the C function, for the message
     * @param detail    what was asked, for the message
     * @param handle    a {@link #capturing} handle
     * @param target    the function pointer for a {@link #capturingPointer} handle, or {@code null}
     * @param args      the C arguments
     * @return the non-NULL result
     * @throws VerbsException the captured errno if the result is NULL
     */
    static MemorySegment pointer(String operation, String detail, MethodHandle handle, MemorySegment target,
                                 Object... args) throws VerbsException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(STATE);
            MemorySegment result = (MemorySegment) invoke(handle, target, state, args);
            if (result.address() == 0) {
                throw new VerbsException(operation, errnoOr(state, Errno.EINVAL), detail);
            }
            return result;
        }
    }

    /**
     * A call returning an int status: 0 success, a positive errno value, or −1 with errno set.
     *
     * @param operation the C function
     * @param detail    what was asked
     * @param handle    a capturing handle
     * @param target    the function pointer, or {@code null}
     * @param args      the C arguments
     * @return the non-negative result (0 for status calls)
     * @throws VerbsException the errno
     */
    static int status(String operation, String detail, MethodHandle handle, MemorySegment target,
                      Object... args) throws VerbsException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(STATE);
            int rc = (int) invoke(handle, target, state, args);
            if (rc > 0) {
                throw new VerbsException(operation, rc, detail);
            }
            if (rc < 0) {
                throw new VerbsException(operation, errnoOr(state, Errno.EIO), detail);
            }
            return rc;
        }
    }

    /**
     * A call returning a non-negative int (a count, an fd), or −1 with errno set.
     *
     * @return the result, ≥ 0
     * @throws VerbsException the errno
     */
    static int count(String operation, String detail, MethodHandle handle, Object... args) throws VerbsException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(STATE);
            int rc = (int) invoke(handle, null, state, args);
            if (rc < 0) {
                throw new VerbsException(operation, errnoOr(state, Errno.EIO), detail);
            }
            return rc;
        }
    }

    private static int errnoOr(MemorySegment state, Errno fallback) {
        int errno = (int) ERRNO.get(state, 0L);
        return errno > 0 ? errno : fallback.value();
    }

    private static Object invoke(MethodHandle handle, MemorySegment target, MemorySegment state, Object[] args) {
        int lead = target == null ? 1 : 2;
        Object[] all = new Object[args.length + lead];
        if (target != null) {
            all[0] = target;
        }
        all[lead - 1] = state;
        System.arraycopy(args, 0, all, lead, args.length);
        try {
            return handle.invokeWithArguments(all);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("native call failed", t);
        }
    }
}
