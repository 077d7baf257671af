package io.rdma.srq.api;

/**
 * Port attributes as returned by ibv_query_port(3) ({@code struct ibv_port_attr}).
 *
 * <p>Made by the adapter through {@link #builder()}; a later version may add attributes (new accessors
 * and builder setters), never remove one, so callers keep compiling.
 */
public final class PortAttributes {
    private final int state;
    private final int maxMtu;
    private final int activeMtu;
    private final int gidTblLen;
    private final long portCapFlags;
    private final long maxMsgSz;
    private final long badPkeyCntr;
    private final long qkeyViolCntr;
    private final int pkeyTblLen;
    private final int lid;
    private final int smLid;
    private final int lmc;
    private final int maxVlNum;
    private final int smSl;
    private final int subnetTimeout;
    private final int initTypeReply;
    private final int activeWidth;
    private final int activeSpeed;
    private final int physState;
    private final int linkLayer;
    private final int flags;
    private final int portCapFlags2;

    private PortAttributes(int state, int maxMtu, int activeMtu, int gidTblLen, long portCapFlags, long maxMsgSz, long badPkeyCntr, long qkeyViolCntr, int pkeyTblLen, int lid, int smLid, int lmc, int maxVlNum, int smSl, int subnetTimeout, int initTypeReply, int activeWidth, int activeSpeed, int physState, int linkLayer, int flags, int portCapFlags2) {
        this.state = state;
        this.maxMtu = maxMtu;
        this.activeMtu = activeMtu;
        this.gidTblLen = gidTblLen;
        this.portCapFlags = portCapFlags;
        this.maxMsgSz = maxMsgSz;
        this.badPkeyCntr = badPkeyCntr;
        this.qkeyViolCntr = qkeyViolCntr;
        this.pkeyTblLen = pkeyTblLen;
        this.lid = lid;
        this.smLid = smLid;
        this.lmc = lmc;
        this.maxVlNum = maxVlNum;
        this.smSl = smSl;
        this.subnetTimeout = subnetTimeout;
        this.initTypeReply = initTypeReply;
        this.activeWidth = activeWidth;
        this.activeSpeed = activeSpeed;
        this.physState = physState;
        this.linkLayer = linkLayer;
        this.flags = flags;
        this.portCapFlags2 = portCapFlags2;
    }

    /** {@return port state: 1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE, 5 ACTIVE_DEFER} */
    public int state() {
        return state;
    }

    /** {@return max_mtu as the enum ibv_mtu value (1=256 … 5=4096 bytes)} */
    public int maxMtu() {
        return maxMtu;
    }

    /** {@return active_mtu as the enum ibv_mtu value} */
    public int activeMtu() {
        return activeMtu;
    }

    /** {@return gid_tbl_len, entries} */
    public int gidTblLen() {
        return gidTblLen;
    }

    /** {@return port_cap_flags, raw} */
    public long portCapFlags() {
        return portCapFlags;
    }

    /** {@return max_msg_sz, bytes (unsigned 32-bit)} */
    public long maxMsgSz() {
        return maxMsgSz;
    }

    /** {@return bad_pkey_cntr} */
    public long badPkeyCntr() {
        return badPkeyCntr;
    }

    /** {@return qkey_viol_cntr} */
    public long qkeyViolCntr() {
        return qkeyViolCntr;
    }

    /** {@return pkey_tbl_len, entries} */
    public int pkeyTblLen() {
        return pkeyTblLen;
    }

    /** {@return lid (0 on RoCE)} */
    public int lid() {
        return lid;
    }

    /** {@return sm_lid} */
    public int smLid() {
        return smLid;
    }

    /** {@return lmc} */
    public int lmc() {
        return lmc;
    }

    /** {@return max_vl_num} */
    public int maxVlNum() {
        return maxVlNum;
    }

    /** {@return sm_sl} */
    public int smSl() {
        return smSl;
    }

    /** {@return subnet_timeout} */
    public int subnetTimeout() {
        return subnetTimeout;
    }

    /** {@return init_type_reply} */
    public int initTypeReply() {
        return initTypeReply;
    }

    /** {@return active_width} */
    public int activeWidth() {
        return activeWidth;
    }

    /** {@return active_speed} */
    public int activeSpeed() {
        return activeSpeed;
    }

    /** {@return phys_state} */
    public int physState() {
        return physState;
    }

    /** {@return link_layer: 0 UNSPECIFIED, 1 INFINIBAND, 2 ETHERNET} */
    public int linkLayer() {
        return linkLayer;
    }

    /** {@return flags} */
    public int flags() {
        return flags;
    }

    /** {@return port_cap_flags2} */
    public int portCapFlags2() {
        return portCapFlags2;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PortAttributes o
                && state == o.state
                && maxMtu == o.maxMtu
                && activeMtu == o.activeMtu
                && gidTblLen == o.gidTblLen
                && portCapFlags == o.portCapFlags
                && maxMsgSz == o.maxMsgSz
                && badPkeyCntr == o.badPkeyCntr
                && qkeyViolCntr == o.qkeyViolCntr
                && pkeyTblLen == o.pkeyTblLen
                && lid == o.lid
                && smLid == o.smLid
                && lmc == o.lmc
                && maxVlNum == o.maxVlNum
                && smSl == o.smSl
                && subnetTimeout == o.subnetTimeout
                && initTypeReply == o.initTypeReply
                && activeWidth == o.activeWidth
                && activeSpeed == o.activeSpeed
                && physState == o.physState
                && linkLayer == o.linkLayer
                && flags == o.flags
                && portCapFlags2 == o.portCapFlags2;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(state, maxMtu, activeMtu, gidTblLen, portCapFlags, maxMsgSz, badPkeyCntr, qkeyViolCntr, pkeyTblLen, lid, smLid, lmc, maxVlNum, smSl, subnetTimeout, initTypeReply, activeWidth, activeSpeed, physState, linkLayer, flags, portCapFlags2);
    }

    @Override
    public String toString() {
        return "PortAttributes[state=" + state + ", maxMtu=" + maxMtu + ", activeMtu=" + activeMtu + ", gidTblLen=" + gidTblLen + ", portCapFlags=" + portCapFlags + ", maxMsgSz=" + maxMsgSz + ", badPkeyCntr=" + badPkeyCntr + ", qkeyViolCntr=" + qkeyViolCntr + ", pkeyTblLen=" + pkeyTblLen + ", lid=" + lid + ", smLid=" + smLid + ", lmc=" + lmc + ", maxVlNum=" + maxVlNum + ", smSl=" + smSl + ", subnetTimeout=" + subnetTimeout + ", initTypeReply=" + initTypeReply + ", activeWidth=" + activeWidth + ", activeSpeed=" + activeSpeed + ", physState=" + physState + ", linkLayer=" + linkLayer + ", flags=" + flags + ", portCapFlags2=" + portCapFlags2 + "]";
    }


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
