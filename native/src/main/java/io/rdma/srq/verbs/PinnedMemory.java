package io.rdma.srq.verbs;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes this JVM's verbs layer has registered and not yet deregistered, in whole pages: what the
 * kernel charges to the process's pinned_vm for it (see {@link MemlockLimit}). Both providers count
 * here; other users of RDMA in the same process are not seen.
 */
public final class PinnedMemory {
    private static final AtomicLong PINNED = new AtomicLong();

    private PinnedMemory() {
    }

    /** {@return the bytes registered now, rounded up to pages per registration} */
    public static long pinnedBytes() {
        return PINNED.get();
    }

    /**
     * Counts a registration that succeeded.
     *
     * @param bytes the MR's length
     * @return the charged bytes (whole pages), to pass to {@link #released(long)}
     */
    public static long registered(long bytes) {
        long charged = MemlockLimit.pages(bytes) * MemlockLimit.PAGE;
        PINNED.addAndGet(charged);
        return charged;
    }

    /**
     * Counts a registration if it fits: the kernel's check (add the pages, refuse past the limit) done
     * atomically, for a device that enforces the limit itself (the soft device).
     *
     * @param bytes        the MR's length
     * @param allowedBytes the limit, or {@link MemlockLimit#UNLIMITED}
     * @return the charged bytes (whole pages), or −1 if they would pass {@code allowedBytes}
     */
    public static long registerWithin(long bytes, long allowedBytes) {
        long charged = MemlockLimit.pages(bytes) * MemlockLimit.PAGE;
        while (true) {
            long now = PINNED.get();
            if (allowedBytes != MemlockLimit.UNLIMITED && now + charged > allowedBytes / MemlockLimit.PAGE * MemlockLimit.PAGE) {
                return -1;
            }
            if (PINNED.compareAndSet(now, now + charged)) {
                return charged;
            }
        }
    }

    /**
     * Counts a deregistration.
     *
     * @param charged what {@link #registered(long)} or {@link #registerWithin(long, long)} returned
     */
    public static void released(long charged) {
        PINNED.addAndGet(-charged);
    }
}
