package io.rdma.srq.verbs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the kernel lets this process pin for RDMA. Registering memory (ibv_reg_mr(3)) pins its pages:
 * the kernel's {@code ib_umem_get} adds them to the process's {@code pinned_vm} and fails the
 * registration with ENOMEM once that exceeds {@code RLIMIT_MEMLOCK}, unless the process has
 * {@code CAP_IPC_LOCK} (drivers/infiniband/core/umem.c). The limit is 8 MiB by default on current
 * kernels and systemd, often 64 KiB in containers; raised with {@code LimitMEMLOCK=} in the systemd
 * unit, {@code ulimit -l} in the shell that starts the server, or {@code --ulimit memlock=-1} for a
 * container.
 *
 * @param softLimitBytes the soft RLIMIT_MEMLOCK in bytes (what the kernel enforces), or
 *                       {@link #UNLIMITED}
 * @param hardLimitBytes the hard RLIMIT_MEMLOCK in bytes (how far an unprivileged process may raise it),
 *                       or {@link #UNLIMITED}
 * @param capIpcLock     whether the process has CAP_IPC_LOCK in its effective set (no limit applies)
 */
public record MemlockLimit(long softLimitBytes, long hardLimitBytes, boolean capIpcLock) {
    /** The limit "unlimited" (RLIM_INFINITY). */
    public static final long UNLIMITED = Long.MAX_VALUE;
    /** The page the kernel pins in; registrations are charged in whole pages. */
    public static final long PAGE = 4096;
    private static final int CAP_IPC_LOCK = 14; // linux/capability.h

    /**
     * Reads the limit of this process from {@code /proc/self/limits} ("Max locked memory") and
     * {@code /proc/self/status} (CapEff), see proc(5).
     *
     * @return the limit; unlimited when /proc cannot be read (not Linux)
     */
    public static MemlockLimit ofThisProcess() {
        try {
            return parse(Files.readString(Path.of("/proc/self/limits")), Files.readString(Path.of("/proc/self/status")));
        } catch (IOException | RuntimeException notLinux) {
            return new MemlockLimit(UNLIMITED, UNLIMITED, false);
        }
    }

    /**
     * Parses the two proc(5) files.
     *
     * @param limits the text of /proc/self/limits
     * @param status the text of /proc/self/status
     * @return the limit
     * @throws IllegalArgumentException if "Max locked memory" is missing or malformed
     */
    public static MemlockLimit parse(String limits, String status) {
        for (String line : limits.split("\n")) {
            if (line.startsWith("Max locked memory")) {
                String[] f = line.substring("Max locked memory".length()).trim().split("\\s+");
                if (f.length < 2) {
                    throw new IllegalArgumentException("malformed limits line: " + line);
                }
                return new MemlockLimit(bytes(f[0]), bytes(f[1]), capIpcLock(status));
            }
        }
        throw new IllegalArgumentException("no \"Max locked memory\" line in /proc/self/limits");
    }

    private static long bytes(String field) {
        return field.equals("unlimited") ? UNLIMITED : Long.parseLong(field);
    }

    private static boolean capIpcLock(String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith("CapEff:")) {
                long caps = Long.parseUnsignedLong(line.substring("CapEff:".length()).trim(), 16);
                return (caps & (1L << CAP_IPC_LOCK)) != 0;
            }
        }
        return false;
    }

    /** {@return the bytes this process may pin: unlimited with CAP_IPC_LOCK, else the soft limit} */
    public long allowedBytes() {
        return capIpcLock ? UNLIMITED : softLimitBytes;
    }

    /**
     * {@return whether {@code moreBytes} more can be pinned on top of {@code pinnedBytes}} Both are
     * rounded up to whole pages, as the kernel charges them.
     *
     * @param pinnedBytes already pinned, ≥ 0
     * @param moreBytes   to be pinned, ≥ 0
     */
    public boolean fits(long pinnedBytes, long moreBytes) {
        long allowed = allowedBytes();
        return allowed == UNLIMITED || pages(pinnedBytes) + pages(moreBytes) <= allowed / PAGE;
    }

    /**
     * {@return the number of pages that hold {@code bytes}}
     *
     * @param bytes a length, ≥ 0
     */
    public static long pages(long bytes) {
        return bytes / PAGE + (bytes % PAGE == 0 ? 0 : 1);
    }

    /**
     * {@return a sentence for an operator: what is allowed, what is pinned, and how to raise it}
     *
     * @param pinnedBytes what this process's adapter has registered so far
     */
    public String describe(long pinnedBytes) {
        if (allowedBytes() == UNLIMITED) {
            return "RLIMIT_MEMLOCK allows unlimited pinned memory" + (capIpcLock ? " (CAP_IPC_LOCK)" : "")
                    + "; " + pinnedBytes + " bytes registered";
        }
        return "RLIMIT_MEMLOCK allows " + softLimitBytes + " bytes of pinned memory (hard limit "
                + (hardLimitBytes == UNLIMITED ? "unlimited" : hardLimitBytes) + ", no CAP_IPC_LOCK), "
                + pinnedBytes + " bytes already registered by this process; raise it with LimitMEMLOCK= in the"
                + " server's systemd unit, ulimit -l in the shell that starts it, or the container's memlock"
                + " ulimit (e.g. --ulimit memlock=-1)";
    }
}
