package io.rdma.srq.verbs.soft;

import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * One soft device: its profile, GID table and memory-key table. Contexts opened on it share these,
 * as contexts of one real device share its keys and GIDs.
 *
 * <p>GIDs: index 0 is the link-local {@code fe80::<node GUID>}; every other index up to
 * {@code gid_tbl_len − 1} is the IPv4-mapped {@code ::ffff:10.77.1.<n>} ({@code n} = profile ordinal
 * + 1), so a caller may use any valid index (rxe0 in the lab needs index 1, the soft device accepts 1
 * and 0 alike).
 */
final class SoftDevice {
    private final SoftProfile profile;
    private final byte[] linkLocalGid = new byte[16];
    private final byte[] ipv4Gid = new byte[16];

    private final java.util.Set<SoftContext> contexts = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final Object keyLock = new Object();
    private volatile SoftMemoryRegion[] mrs = new SoftMemoryRegion[64];
    private final ArrayDeque<Integer> freeSlots = new ArrayDeque<>();
    private int nextSlot = 1;
    private int tag;

    SoftDevice(SoftProfile profile) {
        this.profile = profile;
        linkLocalGid[0] = (byte) 0xfe;
        linkLocalGid[1] = (byte) 0x80;
        long guid = profile.nodeGuid();
        for (int i = 0; i < 8; i++) {
            linkLocalGid[8 + i] = (byte) (guid >>> (56 - 8 * i));
        }
        ipv4Gid[10] = (byte) 0xff;
        ipv4Gid[11] = (byte) 0xff;
        ipv4Gid[12] = 10;
        ipv4Gid[13] = 77;
        ipv4Gid[14] = 1;
        ipv4Gid[15] = (byte) (profile.ordinal() + 1);
    }

    SoftProfile profile() {
        return profile;
    }

    void opened(SoftContext context) {
        contexts.add(context);
    }

    void closed(SoftContext context) {
        contexts.remove(context);
    }

    /** {@return the open contexts of this device} */
    java.util.Set<SoftContext> contexts() {
        return contexts;
    }

    String name() {
        return profile.deviceName();
    }

    /** {@return the GID at {@code index}, which the caller has checked against gid_tbl_len} */
    byte[] gid(int index) {
        return (index == 0 ? linkLocalGid : ipv4Gid).clone();
    }

    /** {@return the IPv4 address of GIDs 1.. (the address a connecting soft rdma_cm id has)} */
    java.net.InetAddress ipv4Address() {
        try {
            return java.net.InetAddress.getByAddress(java.util.Arrays.copyOfRange(ipv4Gid, 12, 16));
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@return whether {@code gid} is one of this device's GIDs} */
    boolean ownsGid(byte[] gid) {
        return Arrays.equals(gid, linkLocalGid) || Arrays.equals(gid, ipv4Gid);
    }

    /**
     * Reserves a memory key: {@code slot << 8 | tag}, as mlx5 and rxe build keys from an index and
     * an 8-bit key.
     *
     * @return the lkey (= rkey)
     */
    int reserveKey() {
        synchronized (keyLock) {
            int slot = freeSlots.isEmpty() ? nextSlot++ : freeSlots.pop();
            tag = (tag + 1) & 0xff;
            return slot << 8 | tag;
        }
    }

    /** Makes {@code mr} findable by its lkey. */
    void publish(SoftMemoryRegion mr) {
        synchronized (keyLock) {
            int slot = mr.key() >>> 8;
            SoftMemoryRegion[] table = mrs;
            if (slot >= table.length) {
                table = Arrays.copyOf(table, Math.max(slot + 1, table.length * 2));
            } else {
                table = table.clone();
            }
            table[slot] = mr;
            mrs = table;
        }
    }

    /** Forgets {@code mr} and frees its key slot. */
    void withdraw(SoftMemoryRegion mr) {
        synchronized (keyLock) {
            int slot = mr.key() >>> 8;
            SoftMemoryRegion[] table = mrs;
            if (slot < table.length && table[slot] == mr) {
                table = table.clone();
                table[slot] = null;
                mrs = table;
            }
            freeSlots.push(slot);
        }
    }

    /**
     * {@return the open MR with that key, or {@code null}}
     *
     * @param lkey a local key from a receive SGE
     */
    SoftMemoryRegion lookup(int lkey) {
        int slot = lkey >>> 8;
        SoftMemoryRegion[] table = mrs;
        if (slot < table.length) {
            SoftMemoryRegion mr = table[slot];
            if (mr != null && mr.key() == lkey) {
                return mr;
            }
        }
        return null;
    }
}
