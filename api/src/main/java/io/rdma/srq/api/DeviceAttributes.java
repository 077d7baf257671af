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

    /** @return the named bits of {@link #deviceCapFlags()} */
    public Set<DeviceCapability> capabilities() {
        return DeviceCapability.decode(deviceCapFlags);
    }

    /**
     * @param capability a capability bit
     * @return whether the device reports it
     */
    public boolean has(DeviceCapability capability) {
        return (deviceCapFlags & capability.mask()) != 0;
    }
}
