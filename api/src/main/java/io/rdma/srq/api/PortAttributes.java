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

    /** IBV_PORT_DOWN */
    public static final int STATE_DOWN = 1;
    /** IBV_PORT_ACTIVE */
    public static final int STATE_ACTIVE = 4;

    /**
     * {@return these attributes with another port state (phys_state follows: 5 LINK_UP for ACTIVE,
     *          3 DISABLED otherwise), as ibv_query_port(3) reads after a link goes down or comes back}
     *
     * @param newState an enum ibv_port_state value (1 DOWN … 5 ACTIVE_DEFER)
     */
    public PortAttributes withState(int newState) {
        return new PortAttributes(newState, maxMtu, activeMtu, gidTblLen, portCapFlags, maxMsgSz, badPkeyCntr,
                qkeyViolCntr, pkeyTblLen, lid, smLid, lmc, maxVlNum, smSl, subnetTimeout, initTypeReply, activeWidth,
                activeSpeed, newState == STATE_ACTIVE ? 5 : 3, linkLayer, flags, portCapFlags2);
    }

    /**
     * {@return the MTU in bytes (256 … 4096), or 0 for an unknown value}
     *
     * @param mtu an enum ibv_mtu value (1..5)
     */
    public static int mtuBytes(int mtu) {
        return mtu >= 1 && mtu <= 5 ? 128 << mtu : 0;
    }

    /** {@return whether the port is ACTIVE} */
    public boolean isActive() {
        return state == STATE_ACTIVE;
    }

    /** {@return a builder with every field 0, to set by name} */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link PortAttributes} by field name; every setter returns the builder. */
    public static final class Builder {
        private int state;
        private int maxMtu;
        private int activeMtu;
        private int gidTblLen;
        private long portCapFlags;
        private long maxMsgSz;
        private long badPkeyCntr;
        private long qkeyViolCntr;
        private int pkeyTblLen;
        private int lid;
        private int smLid;
        private int lmc;
        private int maxVlNum;
        private int smSl;
        private int subnetTimeout;
        private int initTypeReply;
        private int activeWidth;
        private int activeSpeed;
        private int physState;
        private int linkLayer;
        private int flags;
        private int portCapFlags2;

        private Builder() {
        }

        /**
         * {@return this builder}
         *
         * @param state port state: 1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE, 5 ACTIVE_DEFER
         */
        public Builder state(int state) {
            this.state = state;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxMtu max_mtu as the enum ibv_mtu value (1=256 … 5=4096 bytes)
         */
        public Builder maxMtu(int maxMtu) {
            this.maxMtu = maxMtu;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param activeMtu active_mtu as the enum ibv_mtu value
         */
        public Builder activeMtu(int activeMtu) {
            this.activeMtu = activeMtu;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param gidTblLen gid_tbl_len, entries
         */
        public Builder gidTblLen(int gidTblLen) {
            this.gidTblLen = gidTblLen;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param portCapFlags port_cap_flags, raw
         */
        public Builder portCapFlags(long portCapFlags) {
            this.portCapFlags = portCapFlags;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxMsgSz max_msg_sz, bytes (unsigned 32-bit)
         */
        public Builder maxMsgSz(long maxMsgSz) {
            this.maxMsgSz = maxMsgSz;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param badPkeyCntr bad_pkey_cntr
         */
        public Builder badPkeyCntr(long badPkeyCntr) {
            this.badPkeyCntr = badPkeyCntr;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param qkeyViolCntr qkey_viol_cntr
         */
        public Builder qkeyViolCntr(long qkeyViolCntr) {
            this.qkeyViolCntr = qkeyViolCntr;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param pkeyTblLen pkey_tbl_len, entries
         */
        public Builder pkeyTblLen(int pkeyTblLen) {
            this.pkeyTblLen = pkeyTblLen;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param lid lid (0 on RoCE)
         */
        public Builder lid(int lid) {
            this.lid = lid;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param smLid sm_lid
         */
        public Builder smLid(int smLid) {
            this.smLid = smLid;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param lmc lmc
         */
        public Builder lmc(int lmc) {
            this.lmc = lmc;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param maxVlNum max_vl_num
         */
        public Builder maxVlNum(int maxVlNum) {
            this.maxVlNum = maxVlNum;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param smSl sm_sl
         */
        public Builder smSl(int smSl) {
            this.smSl = smSl;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param subnetTimeout subnet_timeout
         */
        public Builder subnetTimeout(int subnetTimeout) {
            this.subnetTimeout = subnetTimeout;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param initTypeReply init_type_reply
         */
        public Builder initTypeReply(int initTypeReply) {
            this.initTypeReply = initTypeReply;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param activeWidth active_width
         */
        public Builder activeWidth(int activeWidth) {
            this.activeWidth = activeWidth;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param activeSpeed active_speed
         */
        public Builder activeSpeed(int activeSpeed) {
            this.activeSpeed = activeSpeed;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param physState phys_state
         */
        public Builder physState(int physState) {
            this.physState = physState;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param linkLayer link_layer: 0 UNSPECIFIED, 1 INFINIBAND, 2 ETHERNET
         */
        public Builder linkLayer(int linkLayer) {
            this.linkLayer = linkLayer;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param flags flags
         */
        public Builder flags(int flags) {
            this.flags = flags;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param portCapFlags2 port_cap_flags2
         */
        public Builder portCapFlags2(int portCapFlags2) {
            this.portCapFlags2 = portCapFlags2;
            return this;
        }

        /** {@return the attributes} */
        public PortAttributes build() {
            return new PortAttributes(state, maxMtu, activeMtu, gidTblLen, portCapFlags, maxMsgSz, badPkeyCntr,
                    qkeyViolCntr, pkeyTblLen, lid, smLid, lmc, maxVlNum, smSl, subnetTimeout, initTypeReply,
                    activeWidth, activeSpeed, physState, linkLayer, flags, portCapFlags2);
        }
    }
}
