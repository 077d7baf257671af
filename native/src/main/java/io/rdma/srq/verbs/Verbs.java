package io.rdma.srq.verbs;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Finds a {@link VerbsProvider}: by name ({@code ibverbs}, {@code soft}) or {@code auto}, which
 * picks ibverbs when libibverbs lists at least one device and the soft device otherwise, and logs
 * which one and why.
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
        String why;
        Optional<VerbsProvider> ib = find(IBVERBS);
        if (ib.isEmpty()) {
            why = "the ibverbs provider is not installed";
        } else if (ib.get().unavailableReason().isPresent()) {
            why = ib.get().unavailableReason().get();
        } else {
            List<DeviceInfo> devices = ib.get().devices();
            if (!devices.isEmpty()) {
                VerbsLogger.LOG.autoChoseIbverbs(devices.stream().map(DeviceInfo::name).toList());
                return ib.get();
            }
            why = "libibverbs lists no RDMA device";
        }
        Optional<VerbsProvider> soft = find(SOFT).filter(p -> p.unavailableReason().isEmpty());
        if (soft.isPresent()) {
            VerbsLogger.LOG.autoChoseSoft(why);
            return soft.get();
        }
        throw new VerbsException("provider", Errno.ENODEV, "no usable verbs provider: " + why
                + ", and the soft provider is not installed");
    }

    private static Optional<VerbsProvider> find(String name) {
        return providers().stream().filter(p -> p.name().equals(name)).findFirst();
    }

    private static List<String> names() {
        return providers().stream().map(VerbsProvider::name).toList();
    }
}
