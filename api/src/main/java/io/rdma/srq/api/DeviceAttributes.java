package io.rdma.srq.api;

import java.util.Set;

/**
 * Device attributes as returned by ibv_query_device(3) ({@code struct ibv_device_attr}).
 * Field names follow the C fields; counts are numbers of objects, sizes are in bytes,
 * {@code max_*_wr} in work requests and {@code max_*sge} in scatter/gather elements.
 * GUIDs are given in host order as {@code ibv_devinfo} prints them.
 *
 * @param fwVersion             fw_ver
 * @param nodeGuid              node_guid (host order)
 * @param sysImageGuid          sys_image_guid (host order)
 * @param maxMrSize             max_mr_size, bytes (unsigned 64-bit)
 * @param pageSizeCap           page_size_cap, a mask of supported page sizes
 * @param vendorId              vendor_id
 * @param vendorPartId          vendor_part_id
 * @param hwVersion             hw_ver
 * @param maxQp                 max_qp
 * @param maxQpWr               max_qp_wr
 * @param deviceCapFlags        device_cap_flags, raw (unsigned 32-bit)
 * @param maxSge                max_sge
 * @param maxSgeRd              max_sge_rd
 * @param maxCq                 max_cq
 * @param maxCqe                max_cqe
 * @param maxMr                 max_mr
 * @param maxPd                 max_pd
 * @param maxQpRdAtom           max_qp_rd_atom
 * @param maxEeRdAtom           max_ee_rd_atom
 * @param maxResRdAtom          max_res_rd_atom
 * @param maxQpInitRdAtom       max_qp_init_rd_atom
 * @param maxEeInitRdAtom       max_ee_init_rd_atom
 * @param atomicCap             atomic_cap (0 NONE, 1 HCA, 2 GLOB)
 * @param maxEe                 max_ee
 * @param maxRdd                max_rdd
 * @param maxMw                 max_mw
 * @param maxRawIpv6Qp          max_raw_ipv6_qp
 * @param maxRawEthyQp          max_raw_ethy_qp
 * @param maxMcastGrp           max_mcast_grp
 * @param maxMcastQpAttach      max_mcast_qp_attach
 * @param maxTotalMcastQpAttach max_total_mcast_qp_attach
 * @param maxAh                 max_ah
 * @param maxFmr                max_fmr
 * @param maxMapPerFmr          max_map_per_fmr
 * @param maxSrq                max_srq
 * @param maxSrqWr              max_srq_wr, the largest max_wr ibv_create_srq(3) accepts
 * @param maxSrqSge             max_srq_sge, the largest max_sge ibv_create_srq(3) accepts
 * @param maxPkeys              max_pkeys
 * @param localCaAckDelay       local_ca_ack_delay
 * @param physPortCnt           phys_port_cnt; ports are numbered 1..physPortCnt
 */
public record DeviceAttributes(
        String fwVersion, long nodeGuid, long sysImageGuid, long maxMrSize, long pageSizeCap,
        long vendorId, long vendorPartId, long hwVersion, int maxQp, int maxQpWr, long deviceCapFlags,
        int maxSge, int maxSgeRd, int maxCq, int maxCqe, int maxMr, int maxPd, int maxQpRdAtom,
        int maxEeRdAtom, int maxResRdAtom, int maxQpInitRdAtom, int maxEeInitRdAtom, int atomicCap,
        int maxEe, int maxRdd, int maxMw, int maxRawIpv6Qp, int maxRawEthyQp, int maxMcastGrp,
        int maxMcastQpAttach, int maxTotalMcastQpAttach, int maxAh, int maxFmr, int maxMapPerFmr,
        int maxSrq, int maxSrqWr, int maxSrqSge, int maxPkeys, int localCaAckDelay, int physPortCnt) {

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
