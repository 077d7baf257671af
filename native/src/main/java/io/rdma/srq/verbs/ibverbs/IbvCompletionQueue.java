package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.WorkCompletionArray;
import io.rdma.srq.verbs.ffi.ibverbs.IbVerbs;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_context_ops;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_cq;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * {@link CompletionQueue} over {@code struct ibv_cq}: poll and notify through the context's
 * {@code ops.poll_cq} / {@code ops.req_notify_cq} (the static inline verbs).
 */
final class IbvCompletionQueue extends IbvResource implements CompletionQueue {
    private static final MethodHandle CREATE = NativeCall.capturing(
            IbVerbs.ibv_create_cq$address(), IbVerbs.ibv_create_cq$descriptor());
    private static final MethodHandle DESTROY = NativeCall.capturing(
            IbVerbs.ibv_destroy_cq$address(), IbVerbs.ibv_destroy_cq$descriptor());

    private final IbvContext context;
    private final MemorySegment pollCq;
    private final MemorySegment reqNotifyCq;
    private final int cqe;

    private IbvCompletionQueue(IbvContext context, MemorySegment cq, IbvCompletionChannel channel) {
        super(context, "CQ on " + context.deviceName(), "ibv_destroy_cq", cq, ibv_cq.sizeof(),
                channel == null ? new IbvResource[0] : new IbvResource[] {channel});
        this.context = context;
        this.pollCq = context.ops().pollCq;
        this.reqNotifyCq = context.ops().reqNotifyCq;
        this.cqe = ibv_cq.cqe(handle());
        context.register(this);
    }

    static IbvCompletionQueue create(IbvContext context, int cqe, IbvCompletionChannel channel)
            throws VerbsException {
        MemorySegment ch = channel == null ? MemorySegment.NULL : channel.handle();
        MemorySegment cq = NativeCall.pointer("ibv_create_cq", "cqe " + cqe + " on " + context.deviceName(), CREATE,
                null, context.handle(), cqe, MemorySegment.NULL, ch, 0);
        return new IbvCompletionQueue(context, cq, channel);
    }

    @Override
    public int cqe() {
        ensureOpen();
        return cqe;
    }

    @Override
    public int poll(WorkCompletionArray wcs, int maxEntries) throws VerbsException {
        MemorySegment cq = handle();
        if (maxEntries < 1 || maxEntries > wcs.capacity()) {
            throw new IllegalArgumentException("maxEntries must be in 1.." + wcs.capacity() + ", got " + maxEntries);
        }
        int n;
        try {
            n = (int) ContextOps.POLL_CQ.invokeExact(pollCq, cq, maxEntries, wcs.segment());
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("ibv_poll_cq downcall", t);
        }
        if (n < 0) {
            throw new VerbsException("ibv_poll_cq", Errno.EINVAL, kind() + " returned " + n);
        }
        return n;
    }

    @Override
    public void requestNotify(boolean solicitedOnly) throws VerbsException {
        int rc = ibv_context_ops.req_notify_cq.invoke(reqNotifyCq, handle(), solicitedOnly ? 1 : 0);
        if (rc != 0) {
            throw new VerbsException("ibv_req_notify_cq", rc, kind());
        }
    }

    @Override
    protected void destroy() throws VerbsException {
        context.unregister(this);
        NativeCall.status("ibv_destroy_cq", kind(), DESTROY, null, raw());
    }
}
