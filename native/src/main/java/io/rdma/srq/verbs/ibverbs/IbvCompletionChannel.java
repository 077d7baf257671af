package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CompletionChannel;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.ffi.ibverbs.IbVerbs;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_comp_channel;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.time.Duration;
import java.util.Optional;

/** {@link CompletionChannel} over {@code struct ibv_comp_channel}; its fd is non-blocking. */
final class IbvCompletionChannel extends IbvResource implements CompletionChannel {
    private static final MethodHandle CREATE = NativeCall.capturing(
            IbVerbs.ibv_create_comp_channel$address(), IbVerbs.ibv_create_comp_channel$descriptor());
    private static final MethodHandle DESTROY = NativeCall.capturing(
            IbVerbs.ibv_destroy_comp_channel$address(), IbVerbs.ibv_destroy_comp_channel$descriptor());
    private static final MethodHandle GET_CQ_EVENT = NativeCall.capturing(
            IbVerbs.ibv_get_cq_event$address(), IbVerbs.ibv_get_cq_event$descriptor());

    private final IbvContext context;
    private final int fd;

    private IbvCompletionChannel(IbvContext context, MemorySegment channel) throws VerbsException {
        super(context, "completion channel on " + context.deviceName(), "ibv_destroy_comp_channel", channel,
                ibv_comp_channel.sizeof());
        this.context = context;
        this.fd = ibv_comp_channel.fd(handle());
        Posix.setNonBlocking(fd);
    }

    static IbvCompletionChannel create(IbvContext context) throws VerbsException {
        MemorySegment ch = NativeCall.pointer("ibv_create_comp_channel", context.deviceName(), CREATE, null,
                context.handle());
        return new IbvCompletionChannel(context, ch);
    }

    @Override
    public Optional<CompletionQueue> getCqEvent(Duration timeout) throws VerbsException {
        ensureOpen();
        if (!Posix.readable(fd, scope(), timeout)) {
            return Optional.empty();
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cq = arena.allocate(ValueLayout.ADDRESS);
            MemorySegment cqContext = arena.allocate(ValueLayout.ADDRESS);
            try {
                NativeCall.status("ibv_get_cq_event", kind(), GET_CQ_EVENT, null, handle(), cq, cqContext);
            } catch (VerbsException e) {
                if (e.is(Errno.EAGAIN)) {
                    return Optional.empty();
                }
                throw e;
            }
            MemorySegment cqPtr = cq.get(ValueLayout.ADDRESS, 0);
            IbVerbs.ibv_ack_cq_events(cqPtr, 1);
            return Optional.ofNullable((CompletionQueue) context.element(cqPtr.address()));
        }
    }

    @Override
    protected void destroy() throws VerbsException {
        NativeCall.status("ibv_destroy_comp_channel", kind(), DESTROY, null, raw());
    }
}
