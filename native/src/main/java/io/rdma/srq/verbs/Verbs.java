package io.rdma.srq.verbs;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

/**
 * Finds a {@link VerbsProvider}: by name ({@code ibverbs}, {@code soft}) or {@code auto}, which
 * picks ibverbs when libibverbs lists at least one device, the soft device (with a WARN) only when
 * the kernel has no RDMA device at all, and fails when the kernel has one that user space cannot use
 * (missing ibverbs-providers, no /dev/infiniband in a container).
 */
public final class Verbs {
    /** The provider name that picks one by what the machine has. */
    public static final String AUTO = "auto";
    /** The provider over libibverbs. */
    public static final String IBVERBS = "ibverbs";
    /** The embedded soft device. */
    public static final String SOFT = "soft";

    private Verbs() {
    }

    /** {@return every provider on the class path, available or not} */
    public static List<VerbsProvider> providers() {
        List<VerbsProvider> list = new ArrayList<>();
        ServiceLoader.load(VerbsProvider.class, Verbs.class.getClassLoader()).forEach(list::add);
        return list;
    }

    /**
     * {@return the provider}
     *
     * @param name {@code auto}, {@code ibverbs} or {@code soft}
     * @throws VerbsException {@code ENODEV} if no provider of that name is installed, {@code ENOSYS} if
     *                       it is installed but cannot run here (the message says why), or, for
     *                       auto, if neither can
     */
    public static VerbsProvider provider(String name) throws VerbsException {
        if (AUTO.equals(name)) {
            return auto();
        }
        VerbsProvider p = find(name).orElseThrow(() -> new VerbsException("provider", Errno.ENODEV,
                "no verbs provider '" + name + "'; installed: " + names() + " (or '" + AUTO + "')"));
        Optional<String> reason = p.unavailableReason();
        if (reason.isPresent()) {
            throw new VerbsException("provider", Errno.ENOSYS, "provider '" + name + "' cannot run here: " + reason.get());
        }
        return p;
    }

    private static VerbsProvider auto() throws VerbsException {
        return auto(find(IBVERBS), find(SOFT), kernelDevices(SYSFS_DEVICES));
    }

    /** Where the kernel lists its RDMA devices (one directory per device, whatever user space has). */
    static final Path SYSFS_DEVICES = Path.of("/sys/class/infiniband");

    /**
     * The policy of {@code auto}: ibverbs when libibverbs lists a device; the soft device only when the
     * kernel has no RDMA device at all (an operator must never get an in-JVM device that no remote peer
     * can reach while a real one is there but unusable); a kernel device that user space cannot see is
     * an error that says what is missing.
     *
     * @param ib            the ibverbs provider, if installed
     * @param soft          the soft provider, if installed
     * @param kernelDevices the names under /sys/class/infiniband
     * @return the provider
     * @throws VerbsException ENODEV when the kernel has RDMA devices that libibverbs cannot list or
     *                        load (the message names them and the fix), or when no provider can run
     */
    static VerbsProvider auto(Optional<VerbsProvider> ib, Optional<VerbsProvider> soft, List<String> kernelDevices)
            throws VerbsException {
        String why;
        if (ib.isEmpty()) {
            why = "the ibverbs provider is not installed";
        } else if (ib.get().unavailableReason().isPresent()) {
            why = ib.get().unavailableReason().get();
        } else {
            List<DeviceInfo> devices = ib.get().devices();
            if (!devices.isEmpty()) {
                List<String> names = devices.stream().map(DeviceInfo::name).toList();
                logChoice("ibverbs " + names, () -> VerbsLogger.LOG.autoChoseIbverbs(names));
                return ib.get();
            }
            why = "libibverbs lists no RDMA device";
        }
        if (!kernelDevices.isEmpty()) {
            throw new VerbsException("provider", Errno.ENODEV, "the kernel has RDMA devices " + kernelDevices
                    + " (/sys/class/infiniband) but " + why + ": install libibverbs1 and ibverbs-providers (the"
                    + " device's user-space driver), and in a container pass /dev/infiniband (e.g. --device"
                    + " /dev/infiniband/uverbs0); or set provider=soft to use the embedded soft device on purpose");
        }
        Optional<VerbsProvider> usable = soft.filter(p -> p.unavailableReason().isEmpty());
        if (usable.isPresent()) {
            String reason = why;
            logChoice("soft " + why, () -> VerbsLogger.LOG.autoChoseSoft(reason));
            return usable.get();
        }
        throw new VerbsException("provider", Errno.ENODEV, "no usable verbs provider: " + why
                + ", and the soft provider is not installed");
    }

    /** The last choice of {@code auto} that was logged: every open asks again (a management read too). */
    private static final AtomicReference<String> LAST_CHOICE = new AtomicReference<>();

    /** Logs a choice of {@code auto} when it differs from the last one logged, so a scrape loop logs nothing. */
    private static void logChoice(String choice, Runnable log) {
        if (!choice.equals(LAST_CHOICE.getAndSet(choice))) {
            log.run();
        }
    }

    /** {@return the device names under {@code dir}, empty if it does not exist} */
    static List<String> kernelDevices(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(e -> e.getFileName().toString()).sorted().toList();
        } catch (IOException | RuntimeException none) {
            return List.of();
        }
    }

    private static Optional<VerbsProvider> find(String name) {
        return providers().stream().filter(p -> p.name().equals(name)).findFirst();
    }

    private static List<String> names() {
        return providers().stream().map(VerbsProvider::name).toList();
    }
}
