package io.rdma.srq.api;

/**
 * Port attributes as returned by ibv_query_port(3) ({@code struct ibv_port_attr}).
 *
 * @param state          port state: 1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE, 5 ACTIVE_DEFER
 * @param maxMtu         max_mtu as the enum ibv_mtu value (1=256 … 5=4096 bytes)
 * @param activeMtu      active_mtu as the enum ibv_mtu value
 * @param gidTblLen      gid_tbl_len, entries
 * @param portCapFlags   port_cap_flags, raw
 * @param maxMsgSz       max_msg_sz, bytes (unsigned 32-bit)
 * @param badPkeyCntr    bad_pkey_cntr
 * @param qkeyViolCntr   qkey_viol_cntr
 * @param pkeyTblLen     pkey_tbl_len, entries
 * @param lid            lid (0 on RoCE)
 * @param smLid          sm_lid
 * @param lmc            lmc
 * @param maxVlNum       max_vl_num
 * @param smSl           sm_sl
 * @param subnetTimeout  subnet_timeout
 * @param initTypeReply  init_type_reply
 * @param activeWidth    active_width
 * @param activeSpeed    active_speed
 * @param physState      phys_state
 * @param linkLayer      link_layer: 0 UNSPECIFIED, 1 INFINIBAND, 2 ETHERNET
 * @param flags          flags
 * @param portCapFlags2  port_cap_flags2
 */
public record PortAttributes(
        int state, int maxMtu, int activeMtu, int gidTblLen, long portCapFlags, long maxMsgSz,
        long badPkeyCntr, long qkeyViolCntr, int pkeyTblLen, int lid, int smLid, int lmc, int maxVlNum,
        int smSl, int subnetTimeout, int initTypeReply, int activeWidth, int activeSpeed, int physState,
        int linkLayer, int flags, int portCapFlags2) {

    /** IBV_PORT_ACTIVE */
    public static final int STATE_ACTIVE = 4;

    /**
     * @param mtu an enum ibv_mtu value (1..5)
     * @return the MTU in bytes (256 … 4096), or 0 for an unknown value
     */
    public static int mtuBytes(int mtu) {
        return mtu >= 1 && mtu <= 5 ? 128 << mtu : 0;
    }

    /** @return whether the port is ACTIVE */
    public boolean isActive() {
        return state == STATE_ACTIVE;
    }
}
