package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.XrcDomain;
import io.rdma.srq.verbs.ffi.ibverbs.IbVerbs;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_xrcd;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_xrcd_init_attr;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** {@link XrcDomain} over {@code struct ibv_xrcd}, through {@code verbs_context.open_xrcd/close_xrcd}. */
final class IbvXrcDomain extends IbvResource implements XrcDomain {
    private static final int O_CREAT = 0100;

    private final MemorySegment closeXrcd;

    private IbvXrcDomain(IbvContext context, MemorySegment xrcd, MemorySegment closeXrcd) {
        super(context, "XRC domain on " + context.deviceName(), "ibv_close_xrcd", xrcd, ibv_xrcd.sizeof());
        this.closeXrcd = closeXrcd;
    }

    static IbvXrcDomain open(IbvContext context) throws VerbsException {
        MemorySegment open = context.ops().openXrcd();
        MemorySegment close = context.ops().closeXrcd();
        if (open == null || close == null) {
            throw new VerbsException("ibv_open_xrcd", Errno.EOPNOTSUPP,
                    context.deviceName() + "'s provider has no XRC support (verbs_context.open_xrcd missing)");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_xrcd_init_attr.layout());
            ibv_xrcd_init_attr.comp_mask(attr, IbVerbs.IBV_XRCD_INIT_ATTR_FD() | IbVerbs.IBV_XRCD_INIT_ATTR_OFLAGS());
            ibv_xrcd_init_attr.fd(attr, -1);
            ibv_xrcd_init_attr.oflags(attr, O_CREAT);
            MemorySegment xrcd = NativeCall.pointer("ibv_open_xrcd", context.deviceName(), ContextOps.OPEN_XRCD, open,
                    context.handle(), attr);
            return new IbvXrcDomain(context, xrcd, close);
        }
    }

    @Override
    protected void destroy() throws VerbsException {
        NativeCall.status("ibv_close_xrcd", kind(), ContextOps.CLOSE_XRCD, closeXrcd, raw());
    }
}
