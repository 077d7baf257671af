package io.rdma.srq.api;

import java.util.EnumSet;
import java.util.Set;

/**
 * Bits of {@code ibv_device_attr.device_cap_flags} ({@code enum ibv_device_cap_flags} in
 * {@code <infiniband/verbs.h>}, ibv_query_device(3)). {@link #SRQ_RESIZE} decides whether
 * {@code ibv_modify_srq(3)} may change max_wr.
 */
public enum DeviceCapability {
    RESIZE_MAX_WR(0), BAD_PKEY_CNTR(1), BAD_QKEY_CNTR(2), RAW_MULTI(3), AUTO_PATH_MIG(4),
    CHANGE_PHY_PORT(5), UD_AV_PORT_ENFORCE(6), CURR_QP_STATE_MOD(7), SHUTDOWN_PORT(8), INIT_TYPE(9),
    PORT_ACTIVE_EVENT(10), SYS_IMAGE_GUID(11), RC_RNR_NAK_GEN(12), SRQ_RESIZE(13), N_NOTIFY_CQ(14),
    MEM_WINDOW(17), UD_IP_CSUM(18), XRC(20), MEM_MGT_EXTENSIONS(21), MEM_WINDOW_TYPE_2A(23),
    MEM_WINDOW_TYPE_2B(24), RC_IP_CSUM(25), RAW_IP_CSUM(26), MANAGED_FLOW_STEERING(29);

    private final int bit;

    DeviceCapability(int bit) {
        this.bit = bit;
    }

    /** @return the flag's mask, e.g. {@code 1 << 13} for SRQ_RESIZE */
    public int mask() {
        return 1 << bit;
    }

    /**
     * @param flags a raw {@code device_cap_flags} value
     * @return the named capabilities set in it (bits without a name are dropped; keep the raw value)
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
