package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.RpmaException;
import io.rdma.srq.verbs.ffi.rpma.Rpma;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * librpma (librpma.so.0, Debian librpma0) calls: they return 0 or a negative RPMA_E_* code, turned
 * into an {@link RpmaException} with rpma_err_2str(3)'s text and, for RPMA_E_PROVIDER, the errno
 * the provider left (captured with the call).
 */
final class Librpma {
    static final String LIBRARY = "librpma.so.0";
    private static final boolean AVAILABLE = io.rdma.srq.verbs.spi.NativeLibrary.loads(LIBRARY);
    private static final StructLayout STATE = java.lang.foreign.Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private Librpma() {
    }

    static void ensureAvailable() throws VerbsException {
        if (!AVAILABLE) {
            throw new VerbsException("rpma_peer_new", Errno.ENOSYS, LIBRARY + " cannot be loaded: install Debian's librpma0");
        }
    }

    /** Handles, linked only after {@link #ensureAvailable()}. */
    static final class H {
        static final MethodHandle PEER_NEW = NativeCall.capturing(Rpma.rpma_peer_new$address(), Rpma.rpma_peer_new$descriptor());
        static final MethodHandle SRQ_NEW = NativeCall.capturing(Rpma.rpma_srq_new$address(), Rpma.rpma_srq_new$descriptor());
        static final MethodHandle SRQ_RECV = NativeCall.capturing(Rpma.rpma_srq_recv$address(), Rpma.rpma_srq_recv$descriptor());
        static final MethodHandle MR_REG = NativeCall.capturing(Rpma.rpma_mr_reg$address(), Rpma.rpma_mr_reg$descriptor());
        static final MethodHandle CQ_GET_WC = NativeCall.capturing(Rpma.rpma_cq_get_wc$address(), Rpma.rpma_cq_get_wc$descriptor());
        static final MethodHandle EP_LISTEN = NativeCall.capturing(Rpma.rpma_ep_listen$address(), Rpma.rpma_ep_listen$descriptor());
        static final MethodHandle EP_NEXT_CONN_REQ = NativeCall.capturing(Rpma.rpma_ep_next_conn_req$address(),
                Rpma.rpma_ep_next_conn_req$descriptor());
        static final MethodHandle CONN_REQ_CONNECT = NativeCall.capturing(Rpma.rpma_conn_req_connect$address(),
                Rpma.rpma_conn_req_connect$descriptor());
        static final MethodHandle CONN_NEXT_EVENT = NativeCall.capturing(Rpma.rpma_conn_next_event$address(),
                Rpma.rpma_conn_next_event$descriptor());

        private H() {
        }
    }

    /**
     * Calls a librpma function through a capturing handle.
     *
     * @return the non-negative result
     * @throws RpmaException for a negative RPMA_E_* result, unless it is {@code tolerated}
     */
    static int call(String operation, String detail, MethodHandle handle, Integer tolerated, Object... args)
            throws RpmaException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(STATE);
            Object[] all = new Object[args.length + 1];
            all[0] = state;
            System.arraycopy(args, 0, all, 1, args.length);
            int rc;
            try {
                rc = (int) handle.invokeWithArguments(all);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
            if (rc >= 0 || (tolerated != null && rc == tolerated)) {
                return rc;
            }
            throw error(operation, rc, (int) ERRNO.get(state, 0L), detail);
        }
    }

    /** An error from a call that returns the code itself (deletes). */
    static void check(String operation, int rc, String detail) throws RpmaException {
        if (rc < 0) {
            throw error(operation, rc, 0, detail);
        }
    }

    private static RpmaException error(String operation, int rc, int errno, String detail) {
        String text = Rpma.rpma_err_2str(rc).reinterpret(Integer.MAX_VALUE).getString(0);
        return new RpmaException(operation, rc, text, errno, detail);
    }
}
