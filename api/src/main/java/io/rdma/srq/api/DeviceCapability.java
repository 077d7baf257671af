package io.rdma.srq.api;

import java.util.EnumSet;
import java.util.Set;

/**
 * Bits of {@code ibv_device_attr.device_cap_flags} ({@code enum ibv_device_cap_flags} in
 * {@code <infiniband/verbs.h>}, ibv_query_device(3)). {@link #SRQ_RESIZE} decides whether
 * {@code ibv_modify_srq(3)} may change max_wr.
 */
public enum DeviceCapability {
    /** IBV_DEVICE_RESIZE_MAX_WR: max_send_wr and max_recv_wr of a QP can be modified. */
    RESIZE_MAX_WR(0),
    /** IBV_DEVICE_BAD_PKEY_CNTR: the device counts bad P_Keys. */
    BAD_PKEY_CNTR(1),
    /** IBV_DEVICE_BAD_QKEY_CNTR: the device counts Q_Key violations. */
    BAD_QKEY_CNTR(2),
    /** IBV_DEVICE_RAW_MULTI: raw packet multicast. */
    RAW_MULTI(3),
    /** IBV_DEVICE_AUTO_PATH_MIG: automatic path migration. */
    AUTO_PATH_MIG(4),
    /** IBV_DEVICE_CHANGE_PHY_PORT: the port of a QP can be changed in SQD. */
    CHANGE_PHY_PORT(5),
    /** IBV_DEVICE_UD_AV_PORT_ENFORCE: the port of a UD address handle is enforced. */
    UD_AV_PORT_ENFORCE(6),
    /** IBV_DEVICE_CURR_QP_STATE_MOD: ibv_modify_qp(3) honours cur_qp_state. */
    CURR_QP_STATE_MOD(7),
    /** IBV_DEVICE_SHUTDOWN_PORT: ports can be shut down. */
    SHUTDOWN_PORT(8),
    /** IBV_DEVICE_INIT_TYPE: InitType and InitTypeReply. */
    INIT_TYPE(9),
    /** IBV_DEVICE_PORT_ACTIVE_EVENT: IBV_EVENT_PORT_ACTIVE is raised. */
    PORT_ACTIVE_EVENT(10),
    /** IBV_DEVICE_SYS_IMAGE_GUID: sys_image_guid is valid. */
    SYS_IMAGE_GUID(11),
    /** IBV_DEVICE_RC_RNR_NAK_GEN: RC QPs send RNR NAKs. */
    RC_RNR_NAK_GEN(12),
    /** IBV_DEVICE_SRQ_RESIZE: ibv_modify_srq(3) may change max_wr (driver note 1). */
    SRQ_RESIZE(13),
    /** IBV_DEVICE_N_NOTIFY_CQ: notification after N completions. */
    N_NOTIFY_CQ(14),
    /** IBV_DEVICE_MEM_WINDOW: memory windows. */
    MEM_WINDOW(17),
    /** IBV_DEVICE_UD_IP_CSUM: IP checksum offload on UD QPs. */
    UD_IP_CSUM(18),
    /** IBV_DEVICE_XRC: extended reliable connections (ibv_open_xrcd(3), XRC SRQs). */
    XRC(20),
    /** IBV_DEVICE_MEM_MGT_EXTENSIONS: memory management extensions (fast registration). */
    MEM_MGT_EXTENSIONS(21),
    /** IBV_DEVICE_MEM_WINDOW_TYPE_2A: type 2A memory windows. */
    MEM_WINDOW_TYPE_2A(23),
    /** IBV_DEVICE_MEM_WINDOW_TYPE_2B: type 2B memory windows. */
    MEM_WINDOW_TYPE_2B(24),
    /** IBV_DEVICE_RC_IP_CSUM: IP checksum offload on RC QPs. */
    RC_IP_CSUM(25),
    /** IBV_DEVICE_RAW_IP_CSUM: IP checksum offload on raw packet QPs. */
    RAW_IP_CSUM(26),
    /** IBV_DEVICE_MANAGED_FLOW_STEERING: flow steering rules. */
    MANAGED_FLOW_STEERING(29);

    private final int bit;

    DeviceCapability(int bit) {
        this.bit = bit;
    }

    /** {@return the flag's mask, e.g. {@code 1 << 13} for SRQ_RESIZE} */
    public int mask() {
        return 1 << bit;
    }

    /**
     * {@return the named capabilities set in it (bits without a name are dropped; keep the raw value)}
     *
     * @param flags a raw {@code device_cap_flags} value
     */
    public static Set<DeviceCapability> decode(long flags) {
        EnumSet<DeviceCapability> set = EnumSet.noneOf(DeviceCapability.class);
        for (DeviceCapability c : values()) {
            if ((flags & c.mask()) != 0) {
                set.add(c);
            }
        }
        return set;
    }
}
