package io.rdma.srq.api;

import java.util.Set;

/**
 * EFA device attributes from efadv_query_device(3) ({@code struct efadv_device_attr}). Fields a
 * library older than the caller's header does not know read 0 (the inlen compatibility rule).
 * EFA has no SRQ: an EFA QP with an SRQ fails with EINVAL.
 *
 * @param maxSqWr       max_sq_wr, send queue depth in WRs
 * @param maxRqWr       max_rq_wr, receive queue depth in WRs
 * @param maxSqSge      max_sq_sge, SGEs per send WR
 * @param maxRqSge      max_rq_sge, SGEs per receive WR
 * @param inlineBufSize inline_buf_size, bytes
 * @param maxRdmaSize   max_rdma_size, bytes per RDMA operation
 * @param deviceCaps    device_caps, raw (unknown bits kept)
 */
public record EfaDeviceAttributes(long maxSqWr, long maxRqWr, int maxSqSge, int maxRqSge, int inlineBufSize,
                                  long maxRdmaSize, long deviceCaps) {

    /** @return the named capabilities */
    public Set<EfaCapability> capabilities() {
        return EfaCapability.decode(deviceCaps);
    }

    /** @return device_caps bits no {@link EfaCapability} names */
    public long unknownCapabilityBits() {
        return EfaCapability.unknownBits(deviceCaps);
    }
}
