package io.rdma.srq.verbs.soft;

import io.rdma.srq.verbs.XrcDomain;

/** {@link XrcDomain} of a soft device with XRC (soft_mlx5_0). */
final class SoftXrcDomain extends SoftResource implements XrcDomain {
    private final SoftContext context;

    SoftXrcDomain(SoftContext context) {
        super(context, "XRC domain on " + context.deviceName(), "ibv_close_xrcd");
        this.context = context;
    }

    SoftContext softContext() {
        return context;
    }

    @Override
    protected void release() {
    }
}
