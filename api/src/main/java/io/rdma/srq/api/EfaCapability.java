package io.rdma.srq.api;

import java.util.EnumSet;
import java.util.Set;

/**
 * Bits of {@code efadv_device_attr.device_caps} (efadv_query_device(3)). rdma-core 44's header
 * names the first three; the others are the values of later rdma-core releases, decoded here so
 * that a newer libefa's answer is understood.
 */
public enum EfaCapability {
    /** EFADV_DEVICE_ATTR_CAPS_RDMA_READ: RDMA read. */
    RDMA_READ(0),
    /** EFADV_DEVICE_ATTR_CAPS_RNR_RETRY: receiver-not-ready retries. */
    RNR_RETRY(1),
    /** EFADV_DEVICE_ATTR_CAPS_CQ_WITH_SGID: completions can carry the source GID. */
    CQ_WITH_SGID(2),
    /** EFADV_DEVICE_ATTR_CAPS_RDMA_WRITE: RDMA write (named after rdma-core 44). */
    RDMA_WRITE(3),
    /** EFADV_DEVICE_ATTR_CAPS_UNSOLICITED_WRITE_RECV: RDMA write with immediate consumes no posted receive (named after rdma-core 44). */
    UNSOLICITED_WRITE_RECV(4),
    /** EFADV_DEVICE_ATTR_CAPS_CQ_WITH_EXT_MEM_DMABUF: CQs in external dmabuf memory (named after rdma-core 44). */
    CQ_WITH_EXT_MEM_DMABUF(5);

    private final int bit;

    EfaCapability(int bit) {
        this.bit = bit;
    }

    /** {@return the C mask, {@code 1 << bit}} */
    public int mask() {
        return 1 << bit;
    }

    /**
     * {@return the named bits in it}
     *
     * @param caps a raw device_caps value
     */
    public static Set<EfaCapability> decode(long caps) {
        EnumSet<EfaCapability> set = EnumSet.noneOf(EfaCapability.class);
        for (EfaCapability c : values()) {
            if ((caps & c.mask()) != 0) {
                set.add(c);
            }
        }
        return set;
    }

    /**
     * {@return the bits no constant names (kept, never dropped silently)}
     *
     * @param caps a raw device_caps value
     */
    public static long unknownBits(long caps) {
        long known = 0;
        for (EfaCapability c : values()) {
            known |= c.mask();
        }
        return caps & ~known;
    }
}
