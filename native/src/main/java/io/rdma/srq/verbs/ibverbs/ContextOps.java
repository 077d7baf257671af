package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.verbs.ffi.ibverbs.ibv_context;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_context_ops;
import io.rdma.srq.verbs.ffi.ibverbs.verbs_context;

import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The provider function pointers behind libibverbs' static inline verbs (driver note 9), resolved once
 * per context:
 * <ul>
 *   <li>from {@code ibv_context.ops}: poll_cq, req_notify_cq, post_srq_recv, post_send — what
 *       ibv_poll_cq, ibv_req_notify_cq, ibv_post_srq_recv and ibv_post_send call;</li>
 *   <li>from {@code struct verbs_context}, which lies just before {@code ibv_context} when
 *       {@code abi_compat} is {@code __VERBS_ABI_IS_EXTENDED}, and only for ops inside its
 *       {@code sz} (verbs_get_ctx_op): query_port, open_xrcd, close_xrcd, create_srq_ex,
 *       get_srq_num. A missing op reads as {@code null}.</li>
 * </ul>
 */
final class ContextOps {
    /** __VERBS_ABI_IS_EXTENDED, ((void *) UINTPTR_MAX) */
    private static final long ABI_IS_EXTENDED = -1L;

    static final MethodHandle QUERY_PORT = NativeCall.capturingPointer(verbs_context.query_port.descriptor());
    static final MethodHandle OPEN_XRCD = NativeCall.capturingPointer(verbs_context.open_xrcd.descriptor());
    static final MethodHandle CLOSE_XRCD = NativeCall.capturingPointer(verbs_context.close_xrcd.descriptor());
    static final MethodHandle CREATE_SRQ_EX = NativeCall.capturingPointer(verbs_context.create_srq_ex.descriptor());
    static final MethodHandle GET_SRQ_NUM = NativeCall.capturingPointer(verbs_context.get_srq_num.descriptor());
    /**
     * ops.poll_cq and ops.post_srq_recv as critical downcalls ({@code Linker.Option.critical}): the
     * data-path verbs only touch the provider's user-space queues (rxe, mlx5, efa: a spinlock, no
     * system call, no callback), so the JVM may skip the thread-state transitions of a normal
     * downcall. Arguments are native segments only. First argument: the function's address.
     */
    static final MethodHandle POLL_CQ = Linker.nativeLinker().downcallHandle(ibv_context_ops.poll_cq.descriptor(),
            Linker.Option.critical(false));
    static final MethodHandle POST_SRQ_RECV = Linker.nativeLinker().downcallHandle(
            ibv_context_ops.post_srq_recv.descriptor(), Linker.Option.critical(false));

    final MemorySegment pollCq;
    final MemorySegment reqNotifyCq;
    final MemorySegment postSrqRecv;
    final MemorySegment postSend;
    private final MemorySegment vctx;

    /** @param ctx a {@code struct ibv_context} of full size */
    ContextOps(MemorySegment ctx) {
        MemorySegment ops = ibv_context.ops(ctx);
        this.pollCq = ibv_context_ops.poll_cq(ops);
        this.reqNotifyCq = ibv_context_ops.req_notify_cq(ops);
        this.postSrqRecv = ibv_context_ops.post_srq_recv(ops);
        this.postSend = ibv_context_ops.post_send(ops);
        this.vctx = ibv_context.abi_compat(ctx).address() == ABI_IS_EXTENDED
                ? MemorySegment.ofAddress(ctx.address() - verbs_context.context$offset())
                    .reinterpret(verbs_context.sizeof())
                : null;
    }

    /** verbs_get_ctx_op: the op if the provider's verbs_context is large enough to hold it and set. */
    private MemorySegment op(String name) {
        if (vctx == null) {
            return null;
        }
        long offset = verbs_context.layout().byteOffset(MemoryLayout.PathElement.groupElement(name));
        if (verbs_context.sz(vctx) < verbs_context.sizeof() - offset) {
            return null;
        }
        MemorySegment fp = vctx.get(java.lang.foreign.ValueLayout.ADDRESS, offset);
        return fp.address() == 0 ? null : fp;
    }

    MemorySegment queryPort() {
        return op("query_port");
    }

    MemorySegment openXrcd() {
        return op("open_xrcd");
    }

    MemorySegment closeXrcd() {
        return op("close_xrcd");
    }

    MemorySegment createSrqEx() {
        return op("create_srq_ex");
    }

    MemorySegment getSrqNum() {
        return op("get_srq_num");
    }
}
