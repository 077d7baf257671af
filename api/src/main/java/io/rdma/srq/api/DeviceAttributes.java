package io.rdma.srq.api;

import java.util.Set;

/**
 * Device attributes as returned by ibv_query_device(3) ({@code struct ibv_device_attr}).
 * Field names follow the C fields; counts are numbers of objects, sizes are in bytes,
 * {@code max_*_wr} in work requests and {@code max_*sge} in scatter/gather elements.
 * GUIDs are given in host order as {@code ibv_devinfo} prints them.
 *
 * <p>Made by the adapter through {@link #builder()}; a later version may add attributes (new accessors
 * and builder setters), never remove one, so callers keep compiling.
 */
public final class DeviceAttributes {
    private final String fwVersion;
    private final long nodeGuid;
    private final long sysImageGuid;
    private final long maxMrSize;
    private final long pageSizeCap;
    private final long vendorId;
    private final long vendorPartId;
    private final long hwVersion;
    private final int maxQp;
    private final int maxQpWr;
    private final long deviceCapFlags;
    private final int maxSge;
    private final int maxSgeRd;
    private final int maxCq;
    private final int maxCqe;
    private final int maxMr;
    private final int maxPd;
    private final int maxQpRdAtom;
    private final int maxEeRdAtom;
    private final int maxResRdAtom;
    private final int maxQpInitRdAtom;
    private final int maxEeInitRdAtom;
    private final int atomicCap;
    private final int maxEe;
    private final int maxRdd;
    private final int maxMw;
    private final int maxRawIpv6Qp;
    private final int maxRawEthyQp;
    private final int maxMcastGrp;
    private final int maxMcastQpAttach;
    private final int maxTotalMcastQpAttach;
    private final int maxAh;
    private final int maxFmr;
    private final int maxMapPerFmr;
    private final int maxSrq;
    private final int maxSrqWr;
    private final int maxSrqSge;
    private final int maxPkeys;
    private final int localCaAckDelay;
    private final int physPortCnt;

    private DeviceAttributes(String fwVersion, long nodeGuid, long sysImageGuid, long maxMrSize, long pageSizeCap, long vendorId, long vendorPartId, long hwVersion, int maxQp, int maxQpWr, long deviceCapFlags, int maxSge, int maxSgeRd, int maxCq, int maxCqe, int maxMr, int maxPd, int maxQpRdAtom, int maxEeRdAtom, int maxResRdAtom, int maxQpInitRdAtom, int maxEeInitRdAtom, int atomicCap, int maxEe, int maxRdd, int maxMw, int maxRawIpv6Qp, int maxRawEthyQp, int maxMcastGrp, int maxMcastQpAttach, int maxTotalMcastQpAttach, int maxAh, int maxFmr, int maxMapPerFmr, int maxSrq, int maxSrqWr, int maxSrqSge, int maxPkeys, int localCaAckDelay, int physPortCnt) {
        this.fwVersion = fwVersion;
        this.nodeGuid = nodeGuid;
        this.sysImageGuid = sysImageGuid;
        this.maxMrSize = maxMrSize;
        this.pageSizeCap = pageSizeCap;
        this.vendorId = vendorId;
        this.vendorPartId = vendorPartId;
        this.hwVersion = hwVersion;
        this.maxQp = maxQp;
        this.maxQpWr = maxQpWr;
        this.deviceCapFlags = deviceCapFlags;
        this.maxSge = maxSge;
        this.maxSgeRd = maxSgeRd;
        this.maxCq = maxCq;
        this.maxCqe = maxCqe;
        this.maxMr = maxMr;
        this.maxPd = maxPd;
        this.maxQpRdAtom = maxQpRdAtom;
        this.maxEeRdAtom = maxEeRdAtom;
        this.maxResRdAtom = maxResRdAtom;
        this.maxQpInitRdAtom = maxQpInitRdAtom;
        this.maxEeInitRdAtom = maxEeInitRdAtom;
        this.atomicCap = atomicCap;
        this.maxEe = maxEe;
        this.maxRdd = maxRdd;
        this.maxMw = maxMw;
        this.maxRawIpv6Qp = maxRawIpv6Qp;
        this.maxRawEthyQp = maxRawEthyQp;
        this.maxMcastGrp = maxMcastGrp;
        this.maxMcastQpAttach = maxMcastQpAttach;
        this.maxTotalMcastQpAttach = maxTotalMcastQpAttach;
        this.maxAh = maxAh;
        this.maxFmr = maxFmr;
        this.maxMapPerFmr = maxMapPerFmr;
        this.maxSrq = maxSrq;
        this.maxSrqWr = maxSrqWr;
        this.maxSrqSge = maxSrqSge;
        this.maxPkeys = maxPkeys;
        this.localCaAckDelay = localCaAckDelay;
        this.physPortCnt = physPortCnt;
    }

    /** {@return fw_ver} */
    public String fwVersion() {
        return fwVersion;
    }

    /** {@return node_guid (host order)} */
    public long nodeGuid() {
        return nodeGuid;
    }

    /** {@return sys_image_guid (host order)} */
    public long sysImageGuid() {
        return sysImageGuid;
    }

    /** {@return max_mr_size, bytes (unsigned 64-bit)} */
    public long maxMrSize() {
        return maxMrSize;
    }

    /** {@return page_size_cap, a mask of supported page sizes} */
    public long pageSizeCap() {
        return pageSizeCap;
    }

    /** {@return vendor_id} */
    public long vendorId() {
        return vendorId;
    }

    /** {@return vendor_part_id} */
    public long vendorPartId() {
        return vendorPartId;
    }

    /** {@return hw_ver} */
    public long hwVersion() {
        return hwVersion;
    }

    /** {@return max_qp} */
    public int maxQp() {
        return maxQp;
    }

    /** {@return max_qp_wr} */
    public int maxQpWr() {
        return maxQpWr;
    }

    /** {@return device_cap_flags, raw (unsigned 32-bit)} */
    public long deviceCapFlags() {
        return deviceCapFlags;
    }

    /** {@return max_sge} */
    public int maxSge() {
        return maxSge;
    }

    /** {@return max_sge_rd} */
    public int maxSgeRd() {
        return maxSgeRd;
    }

    /** {@return max_cq} */
    public int maxCq() {
        return maxCq;
    }

    /** {@return max_cqe} */
    public int maxCqe() {
        return maxCqe;
    }

    /** {@return max_mr} */
    public int maxMr() {
        return maxMr;
    }

    /** {@return max_pd} */
    public int maxPd() {
        return maxPd;
    }

    /** {@return max_qp_rd_atom} */
    public int maxQpRdAtom() {
        return maxQpRdAtom;
    }

    /** {@return max_ee_rd_atom} */
    public int maxEeRdAtom() {
        return maxEeRdAtom;
    }

    /** {@return max_res_rd_atom} */
    public int maxResRdAtom() {
        return maxResRdAtom;
    }

    /** {@return max_qp_init_rd_atom} */
    public int maxQpInitRdAtom() {
        return maxQpInitRdAtom;
    }

    /** {@return max_ee_init_rd_atom} */
    public int maxEeInitRdAtom() {
        return maxEeInitRdAtom;
    }

    /** {@return atomic_cap (0 NONE, 1 HCA, 2 GLOB)} */
    public int atomicCap() {
        return atomicCap;
    }

    /** {@return max_ee} */
    public int maxEe() {
        return maxEe;
    }

    /** {@return max_rdd} */
    public int maxRdd() {
        return maxRdd;
    }

    /** {@return max_mw} */
    public int maxMw() {
        return maxMw;
    }

    /** {@return max_raw_ipv6_qp} */
    public int maxRawIpv6Qp() {
        return maxRawIpv6Qp;
    }

    /** {@return max_raw_ethy_qp} */
    public int maxRawEthyQp() {
        return maxRawEthyQp;
    }

    /** {@return max_mcast_grp} */
    public int maxMcastGrp() {
        return maxMcastGrp;
    }

    /** {@return max_mcast_qp_attach} */
    public int maxMcastQpAttach() {
        return maxMcastQpAttach;
    }

    /** {@return max_total_mcast_qp_attach} */
    public int maxTotalMcastQpAttach() {
        return maxTotalMcastQpAttach;
    }

    /** {@return max_ah} */
    public int maxAh() {
        return maxAh;
    }

    /** {@return max_fmr} */
    public int maxFmr() {
        return maxFmr;
    }

    /** {@return max_map_per_fmr} */
    public int maxMapPerFmr() {
        return maxMapPerFmr;
    }

    /** {@return max_srq} */
    public int maxSrq() {
        return maxSrq;
    }

    /** {@return max_srq_wr, the largest max_wr ibv_create_srq(3) accepts} */
    public int maxSrqWr() {
        return maxSrqWr;
    }

    /** {@return max_srq_sge, the largest max_sge ibv_create_srq(3) accepts} */
    public int maxSrqSge() {
        return maxSrqSge;
    }

    /** {@return max_pkeys} */
    public int maxPkeys() {
        return maxPkeys;
    }

    /** {@return local_ca_ack_delay} */
    public int localCaAckDelay() {
        return localCaAckDelay;
    }

    /** {@return phys_port_cnt; ports are numbered 1..physPortCnt} */
    public int physPortCnt() {
        return physPortCnt;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof DeviceAttributes o
                && java.util.Objects.equals(fwVersion, o.fwVersion)
                && nodeGuid == o.nodeGuid
                && sysImageGuid == o.sysImageGuid
                && maxMrSize == o.maxMrSize
                && pageSizeCap == o.pageSizeCap
                && vendorId == o.vendorId
                && vendorPartId == o.vendorPartId
                && hwVersion == o.hwVersion
                && maxQp == o.maxQp
                && maxQpWr == o.maxQpWr
                && deviceCapFlags == o.deviceCapFlags
                && maxSge == o.maxSge
                && maxSgeRd == o.maxSgeRd
                && maxCq == o.maxCq
                && maxCqe == o.maxCqe
                && maxMr == o.maxMr
                && maxPd == o.maxPd
                && maxQpRdAtom == o.maxQpRdAtom
                && maxEeRdAtom == o.maxEeRdAtom
                && maxResRdAtom == o.maxResRdAtom
                && maxQpInitRdAtom == o.maxQpInitRdAtom
                && maxEeInitRdAtom == o.maxEeInitRdAtom
                && atomicCap == o.atomicCap
                && maxEe == o.maxEe
                && maxRdd == o.maxRdd
                && maxMw == o.maxMw
                && maxRawIpv6Qp == o.maxRawIpv6Qp
                && maxRawEthyQp == o.maxRawEthyQp
                && maxMcastGrp == o.maxMcastGrp
                && maxMcastQpAttach == o.maxMcastQpAttach
                && maxTotalMcastQpAttach == o.maxTotalMcastQpAttach
                && maxAh == o.maxAh
                && maxFmr == o.maxFmr
                && maxMapPerFmr == o.maxMapPerFmr
                && maxSrq == o.maxSrq
                && maxSrqWr == o.maxSrqWr
                && maxSrqSge == o.maxSrqSge
                && maxPkeys == o.maxPkeys
                && localCaAckDelay == o.localCaAckDelay
                && physPortCnt == o.physPortCnt;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(fwVersion, nodeGuid, sysImageGuid, maxMrSize, pageSizeCap, vendorId, vendorPartId, hwVersion, maxQp, maxQpWr, deviceCapFlags, maxSge, maxSgeRd, maxCq, maxCqe, maxMr, maxPd, maxQpRdAtom, maxEeRdAtom, maxResRdAtom, maxQpInitRdAtom, maxEeInitRdAtom, atomicCap, maxEe, maxRdd, maxMw, maxRawIpv6Qp, maxRawEthyQp, maxMcastGrp, maxMcastQpAttach, maxTotalMcastQpAttach, maxAh, maxFmr, maxMapPerFmr, maxSrq, maxSrqWr, maxSrqSge, maxPkeys, localCaAckDelay, physPortCnt);
    }

    @Override
    public String toString() {
        return "DeviceAttributes[fwVersion=" + fwVersion + ", nodeGuid=" + nodeGuid + ", sysImageGuid=" + sysImageGuid + ", maxMrSize=" + maxMrSize + ", pageSizeCap=" + pageSizeCap + ", vendorId=" + vendorId + ", vendorPartId=" + vendorPartId + ", hwVersion=" + hwVersion + ", maxQp=" + maxQp + ", maxQpWr=" + maxQpWr + ", deviceCapFlags=" + deviceCapFlags + ", maxSge=" + maxSge + ", maxSgeRd=" + maxSgeRd + ", maxCq=" + maxCq + ", maxCqe=" + maxCqe + ", maxMr=" + maxMr + ", maxPd=" + maxPd + ", maxQpRdAtom=" + maxQpRdAtom + ", maxEeRdAtom=" + maxEeRdAtom + ", maxResRdAtom=" + maxResRdAtom + ", maxQpInitRdAtom=" + maxQpInitRdAtom + ", maxEeInitRdAtom=" + maxEeInitRdAtom + ", atomicCap=" + atomicCap + ", maxEe=" + maxEe + ", maxRdd=" + maxRdd + ", maxMw=" + maxMw + ", maxRawIpv6Qp=" + maxRawIpv6Qp + ", maxRawEthyQp=" + maxRawEthyQp + ", maxMcastGrp=" + maxMcastGrp + ", maxMcastQpAttach=" + maxMcastQpAttach + ", maxTotalMcastQpAttach=" + maxTotalMcastQpAttach + ", maxAh=" + maxAh + ", maxFmr=" + maxFmr + ", maxMapPerFmr=" + maxMapPerFmr + ", maxSrq=" + maxSrq + ", maxSrqWr=" + maxSrqWr + ", maxSrqSge=" + maxSrqSge + ", maxPkeys=" + maxPkeys + ", localCaAckDelay=" + localCaAckDelay + ", physPortCnt=" + physPortCnt + "]";
    }


    /** {@return the named bits of {@link #deviceCapFlags()}} */
    public Set<DeviceCapability> capabilities() {
        return DeviceCapability.decode(deviceCapFlags);
    }

    /**
     * {@return whether the device reports it}
     *
     * @param capability a capability bit
     */
    public boolean has(DeviceCapability capability) {
        return (deviceCapFlags & capability.mask()) != 0;
    }

    /** {@return a builder with every field 0 (and an empty {@code fwVersion}), to set by name} */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link DeviceAttributes} by field name; every setter returns the builder. */
    public static final class Builder {
        private String fwVersion = "";
        private long nodeGuid;
        private long sysImageGuid;
        private long maxMrSize;
        private long pageSizeCap;
        private long vendorId;
        private long vendorPartId;
        private long hwVersion;
        private int maxQp;
        private int maxQpWr;
        private long deviceCapFlags;
        private int maxSge;
        private int maxSgeRd;
        private int maxCq;
        private int maxCqe;
        private int maxMr;
        private int maxPd;
        private int maxQpRdAtom;
        private int maxEeRdAtom;
        private int maxResRdAtom;
        private int maxQpInitRdAtom;
        private int maxEeInitRdAtom;
        private int atomicCap;
        private int maxEe;
        private int maxRdd;
        private int maxMw;
        private int maxRawIpv6Qp;
        private int maxRawEthyQp;
        private int maxMcastGrp;
        private int maxMcastQpAttach;
        private int maxTotalMcastQpAttach;
        private int maxAh;
        private int maxFmr;
        private int maxMapPerFmr;
        private int maxSrq;
        private int maxSrqWr;
        private int maxSrqSge;
        private int maxPkeys;
        private int localCaAckDelay;
        private int physPortCnt;

        private Builder() {
        }

        /**
         * {@return this builder}
         *
         * @param fwVersion fw_ver
         */
        public Builder fwVersion(String fwVersion) {
            this.fwVersion = fwVersion;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param nodeGuid node_guid (host order)
         */
        public Builder nodeGuid(long nodeGuid) {
            this.nodeGuid = nodeGuid;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param sysImageGuid sys_image_guid (host order)
         */
        public Builder sysImageGuid(long sysImageGuid) {
            this.sysImageGuid = sysImageGuid;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxMrSize max_mr_size, bytes (unsigned 64-bit)
         */
        public Builder maxMrSize(long maxMrSize) {
            this.maxMrSize = maxMrSize;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param pageSizeCap page_size_cap, a mask of supported page sizes
         */
        public Builder pageSizeCap(long pageSizeCap) {
            this.pageSizeCap = pageSizeCap;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param vendorId vendor_id
         */
        public Builder vendorId(long vendorId) {
            this.vendorId = vendorId;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param vendorPartId vendor_part_id
         */
        public Builder vendorPartId(long vendorPartId) {
            this.vendorPartId = vendorPartId;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param hwVersion hw_ver
         */
        public Builder hwVersion(long hwVersion) {
            this.hwVersion = hwVersion;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxQp max_qp
         */
        public Builder maxQp(int maxQp) {
            this.maxQp = maxQp;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxQpWr max_qp_wr
         */
        public Builder maxQpWr(int maxQpWr) {
            this.maxQpWr = maxQpWr;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param deviceCapFlags device_cap_flags, raw (unsigned 32-bit)
         */
        public Builder deviceCapFlags(long deviceCapFlags) {
            this.deviceCapFlags = deviceCapFlags;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxSge max_sge
         */
        public Builder maxSge(int maxSge) {
            this.maxSge = maxSge;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxSgeRd max_sge_rd
         */
        public Builder maxSgeRd(int maxSgeRd) {
            this.maxSgeRd = maxSgeRd;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxCq max_cq
         */
        public Builder maxCq(int maxCq) {
            this.maxCq = maxCq;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxCqe max_cqe
         */
        public Builder maxCqe(int maxCqe) {
            this.maxCqe = maxCqe;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxMr max_mr
         */
        public Builder maxMr(int maxMr) {
            this.maxMr = maxMr;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxPd max_pd
         */
        public Builder maxPd(int maxPd) {
            this.maxPd = maxPd;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxQpRdAtom max_qp_rd_atom
         */
        public Builder maxQpRdAtom(int maxQpRdAtom) {
            this.maxQpRdAtom = maxQpRdAtom;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxEeRdAtom max_ee_rd_atom
         */
        public Builder maxEeRdAtom(int maxEeRdAtom) {
            this.maxEeRdAtom = maxEeRdAtom;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxResRdAtom max_res_rd_atom
         */
        public Builder maxResRdAtom(int maxResRdAtom) {
            this.maxResRdAtom = maxResRdAtom;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxQpInitRdAtom max_qp_init_rd_atom
         */
        public Builder maxQpInitRdAtom(int maxQpInitRdAtom) {
            this.maxQpInitRdAtom = maxQpInitRdAtom;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxEeInitRdAtom max_ee_init_rd_atom
         */
        public Builder maxEeInitRdAtom(int maxEeInitRdAtom) {
            this.maxEeInitRdAtom = maxEeInitRdAtom;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param atomicCap atomic_cap (0 NONE, 1 HCA, 2 GLOB)
         */
        public Builder atomicCap(int atomicCap) {
            this.atomicCap = atomicCap;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxEe max_ee
         */
        public Builder maxEe(int maxEe) {
            this.maxEe = maxEe;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxRdd max_rdd
         */
        public Builder maxRdd(int maxRdd) {
            this.maxRdd = maxRdd;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxMw max_mw
         */
        public Builder maxMw(int maxMw) {
            this.maxMw = maxMw;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxRawIpv6Qp max_raw_ipv6_qp
         */
        public Builder maxRawIpv6Qp(int maxRawIpv6Qp) {
            this.maxRawIpv6Qp = maxRawIpv6Qp;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxRawEthyQp max_raw_ethy_qp
         */
        public Builder maxRawEthyQp(int maxRawEthyQp) {
            this.maxRawEthyQp = maxRawEthyQp;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxMcastGrp max_mcast_grp
         */
        public Builder maxMcastGrp(int maxMcastGrp) {
            this.maxMcastGrp = maxMcastGrp;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxMcastQpAttach max_mcast_qp_attach
         */
        public Builder maxMcastQpAttach(int maxMcastQpAttach) {
            this.maxMcastQpAttach = maxMcastQpAttach;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxTotalMcastQpAttach max_total_mcast_qp_attach
         */
        public Builder maxTotalMcastQpAttach(int maxTotalMcastQpAttach) {
            this.maxTotalMcastQpAttach = maxTotalMcastQpAttach;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxAh max_ah
         */
        public Builder maxAh(int maxAh) {
            this.maxAh = maxAh;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxFmr max_fmr
         */
        public Builder maxFmr(int maxFmr) {
            this.maxFmr = maxFmr;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxMapPerFmr max_map_per_fmr
         */
        public Builder maxMapPerFmr(int maxMapPerFmr) {
            this.maxMapPerFmr = maxMapPerFmr;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxSrq max_srq
         */
        public Builder maxSrq(int maxSrq) {
            this.maxSrq = maxSrq;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxSrqWr max_srq_wr, the largest max_wr ibv_create_srq(3) accepts
         */
        public Builder maxSrqWr(int maxSrqWr) {
            this.maxSrqWr = maxSrqWr;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxSrqSge max_srq_sge, the largest max_sge ibv_create_srq(3) accepts
         */
        public Builder maxSrqSge(int maxSrqSge) {
            this.maxSrqSge = maxSrqSge;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxPkeys max_pkeys
         */
        public Builder maxPkeys(int maxPkeys) {
            this.maxPkeys = maxPkeys;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param localCaAckDelay local_ca_ack_delay
         */
        public Builder localCaAckDelay(int localCaAckDelay) {
            this.localCaAckDelay = localCaAckDelay;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param physPortCnt phys_port_cnt; ports are numbered 1..physPortCnt
         */
        public Builder physPortCnt(int physPortCnt) {
            this.physPortCnt = physPortCnt;
            return this;
        }

        /** {@return the attributes} */
        public DeviceAttributes build() {
            return new DeviceAttributes(fwVersion, nodeGuid, sysImageGuid, maxMrSize, pageSizeCap, vendorId,
                    vendorPartId, hwVersion, maxQp, maxQpWr, deviceCapFlags, maxSge, maxSgeRd, maxCq, maxCqe,
                    maxMr, maxPd, maxQpRdAtom, maxEeRdAtom, maxResRdAtom, maxQpInitRdAtom, maxEeInitRdAtom,
                    atomicCap, maxEe, maxRdd, maxMw, maxRawIpv6Qp, maxRawEthyQp, maxMcastGrp, maxMcastQpAttach,
                    maxTotalMcastQpAttach, maxAh, maxFmr, maxMapPerFmr, maxSrq, maxSrqWr, maxSrqSge, maxPkeys,
                    localCaAckDelay, physPortCnt);
        }
    }
}
