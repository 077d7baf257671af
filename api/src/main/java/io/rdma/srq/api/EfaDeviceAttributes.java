package io.rdma.srq.api;

import java.util.Set;

/**
 * EFA device attributes from efadv_query_device(3) ({@code struct efadv_device_attr}). Fields a
 * library older than the caller's header does not know read 0 (the inlen compatibility rule).
 * EFA has no SRQ: an EFA QP with an SRQ fails with EINVAL.
 *
 * <p>Made by the adapter through {@link #builder()}; a later version may add attributes (new accessors
 * and builder setters), never remove one, so callers keep compiling.
 */
public final class EfaDeviceAttributes {
    private final long maxSqWr;
    private final long maxRqWr;
    private final int maxSqSge;
    private final int maxRqSge;
    private final int inlineBufSize;
    private final long maxRdmaSize;
    private final long deviceCaps;

    private EfaDeviceAttributes(long maxSqWr, long maxRqWr, int maxSqSge, int maxRqSge, int inlineBufSize, long maxRdmaSize, long deviceCaps) {
        this.maxSqWr = maxSqWr;
        this.maxRqWr = maxRqWr;
        this.maxSqSge = maxSqSge;
        this.maxRqSge = maxRqSge;
        this.inlineBufSize = inlineBufSize;
        this.maxRdmaSize = maxRdmaSize;
        this.deviceCaps = deviceCaps;
    }

    /** {@return max_sq_wr, send queue depth in WRs} */
    public long maxSqWr() {
        return maxSqWr;
    }

    /** {@return max_rq_wr, receive queue depth in WRs} */
    public long maxRqWr() {
        return maxRqWr;
    }

    /** {@return max_sq_sge, SGEs per send WR} */
    public int maxSqSge() {
        return maxSqSge;
    }

    /** {@return max_rq_sge, SGEs per receive WR} */
    public int maxRqSge() {
        return maxRqSge;
    }

    /** {@return inline_buf_size, bytes} */
    public int inlineBufSize() {
        return inlineBufSize;
    }

    /** {@return max_rdma_size, bytes per RDMA operation} */
    public long maxRdmaSize() {
        return maxRdmaSize;
    }

    /** {@return device_caps, raw (unknown bits kept)} */
    public long deviceCaps() {
        return deviceCaps;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof EfaDeviceAttributes o
                && maxSqWr == o.maxSqWr
                && maxRqWr == o.maxRqWr
                && maxSqSge == o.maxSqSge
                && maxRqSge == o.maxRqSge
                && inlineBufSize == o.inlineBufSize
                && maxRdmaSize == o.maxRdmaSize
                && deviceCaps == o.deviceCaps;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(maxSqWr, maxRqWr, maxSqSge, maxRqSge, inlineBufSize, maxRdmaSize, deviceCaps);
    }

    @Override
    public String toString() {
        return "EfaDeviceAttributes[maxSqWr=" + maxSqWr + ", maxRqWr=" + maxRqWr + ", maxSqSge=" + maxSqSge + ", maxRqSge=" + maxRqSge + ", inlineBufSize=" + inlineBufSize + ", maxRdmaSize=" + maxRdmaSize + ", deviceCaps=" + deviceCaps + "]";
    }


    /** {@return the named capabilities} */
    public Set<EfaCapability> capabilities() {
        return EfaCapability.decode(deviceCaps);
    }

    /** {@return device_caps bits no {@link EfaCapability} names} */
    public long unknownCapabilityBits() {
        return EfaCapability.unknownBits(deviceCaps);
    }

    /** {@return a builder with every field 0, to set by name} */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link EfaDeviceAttributes} by field name; every setter returns the builder. */
    public static final class Builder {
        private long maxSqWr;
        private long maxRqWr;
        private int maxSqSge;
        private int maxRqSge;
        private int inlineBufSize;
        private long maxRdmaSize;
        private long deviceCaps;

        private Builder() {
        }

        /**
         * {@return this builder}
         *
         * @param maxSqWr max_sq_wr, send queue depth in WRs
         */
        public Builder maxSqWr(long maxSqWr) {
            this.maxSqWr = maxSqWr;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxRqWr max_rq_wr, receive queue depth in WRs
         */
        public Builder maxRqWr(long maxRqWr) {
            this.maxRqWr = maxRqWr;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxSqSge max_sq_sge, SGEs per send WR
         */
        public Builder maxSqSge(int maxSqSge) {
            this.maxSqSge = maxSqSge;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxRqSge max_rq_sge, SGEs per receive WR
         */
        public Builder maxRqSge(int maxRqSge) {
            this.maxRqSge = maxRqSge;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param inlineBufSize inline_buf_size, bytes
         */
        public Builder inlineBufSize(int inlineBufSize) {
            this.inlineBufSize = inlineBufSize;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxRdmaSize max_rdma_size, bytes per RDMA operation
         */
        public Builder maxRdmaSize(long maxRdmaSize) {
            this.maxRdmaSize = maxRdmaSize;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param deviceCaps device_caps, raw (unknown bits kept)
         */
        public Builder deviceCaps(long deviceCaps) {
            this.deviceCaps = deviceCaps;
            return this;
        }

        /** {@return the attributes} */
        public EfaDeviceAttributes build() {
            return new EfaDeviceAttributes(maxSqWr, maxRqWr, maxSqSge, maxRqSge, inlineBufSize, maxRdmaSize,
                    deviceCaps);
        }
    }
}
