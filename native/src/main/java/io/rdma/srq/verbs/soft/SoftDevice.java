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
    /** rdma_cm ids bound to this device (listeners, connections): told of its removal. */
    private final java.util.Set<CmId> cmIds = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** False between {@link SoftProvider#removeDevice} and {@link SoftProvider#addDevice}. */
    private volatile boolean present = true;
    /** Thrown by the next poll of any CQ of the device, once ({@link SoftProvider#failNextPoll}); null: none. */
    private final java.util.concurrent.atomic.AtomicReference<Error> pollFailure = new java.util.concurrent.atomic.AtomicReference<>();
    /** The port's state (IBV_PORT_ACTIVE, or DOWN after {@link SoftProvider#raisePortError}). */
    private volatile int portState = io.rdma.srq.api.PortAttributes.STATE_ACTIVE;

    /** A soft rdma_cm id: hears RDMA_CM_EVENT_DEVICE_REMOVAL when its device goes. */
    interface CmId {
        /** Queues RDMA_CM_EVENT_DEVICE_REMOVAL for this id (rdma_cm(7)). */
        void deviceRemoved();
    }
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

    /** @param failure thrown by the next poll of any CQ of this device */
    void failNextPoll(Error failure) {
        pollFailure.set(failure);
    }

    /** {@return the failure the next poll throws, taken (so thrown once), or null} */
    Error takePollFailure() {
        return pollFailure.get() == null ? null : pollFailure.getAndSet(null);
    }

    void opened(SoftContext context) {
        contexts.add(context);
    }

    void closed(SoftContext context) {
        contexts.remove(context);
    }

    void bound(CmId id) {
        cmIds.add(id);
    }

    void unbound(CmId id) {
        cmIds.remove(id);
    }

    /** {@return whether the device is there (ibv_get_device_list(3) lists it, ibv_open_device opens it)} */
    boolean present() {
        return present;
    }

    /**
     * Takes the device away or brings it back. Taking it away tells every rdma_cm id bound to it
     * (RDMA_CM_EVENT_DEVICE_REMOVAL) and nothing else: see {@link SoftProvider#removeDevice}.
     */
    void present(boolean now) {
        present = now;
        if (!now) {
            java.util.List.copyOf(cmIds).forEach(CmId::deviceRemoved);
        } else {
            portState = io.rdma.srq.api.PortAttributes.STATE_ACTIVE;
        }
    }

    int portState() {
        return portState;
    }

    /** Sets the state of {@code port} if the device has it (soft devices have port 1 only). */
    void portState(int port, int state) {
        if (port >= 1 && port <= profile.deviceAttributes().physPortCnt()) {
            portState = state;
        }
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
