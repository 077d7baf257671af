package io.rdma.srq.ra.support;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.DeviceInfo;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.VerbsProvider;
import io.rdma.srq.verbs.soft.SoftProfile;
import jakarta.resource.spi.InvalidPropertyException;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Which device a configuration means, properties {@code provider}, {@code device} and
 * {@code softProfile} as the connection definition and the activation both have them, parsed once.
 *
 * @param provider    the verbs provider
 * @param device      a device name, an interface address, {@code gid:} and a GID, or empty (see
 *                    {@link #open(String)})
 * @param softProfile the soft device's profile, used when the provider is (or {@code auto} falls
 *                    back to) the soft one and no device is named
 */
public record DeviceSelection(Provider provider, String device, SoftProfile softProfile) {

    /** The {@code provider} property's values: the names {@link Verbs#provider} takes. */
    public enum Provider {
        /** ibverbs when libibverbs lists a device, else the soft device. */
        AUTO(Verbs.AUTO),
        /** libibverbs. */
        IBVERBS(Verbs.IBVERBS),
        /** the embedded soft device. */
        SOFT(Verbs.SOFT);

        private final String verbsName;

        Provider(String verbsName) {
            this.verbsName = verbsName;
        }

        /** @return the name {@link Verbs#provider} takes, and the property's text */
        public String verbsName() {
            return verbsName;
        }
    }

    /** @throws NullPointerException for a null component */
    public DeviceSelection {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(softProfile, "softProfile");
    }

    /**
     * @param check       where errors are reported
     * @param provider    provider text: auto | ibverbs | soft
     * @param device      device text, empty (or null) for the first
     * @param softProfile softProfile text: a {@link SoftProfile} by {@link SoftProfile#of} (rxe | mlx5 | efa)
     * @return the selection
     * @throws InvalidPropertyException {@code provider must be one of auto, ibverbs, soft, got 'x'}, or
     *                                  the same for softProfile
     */
    public static DeviceSelection parse(PropertyCheck check, String provider, String device, String softProfile)
            throws InvalidPropertyException {
        Provider p = check.oneOf("provider", provider, List.of(Provider.values()), Provider::verbsName);
        SoftProfile profile = check.parse("softProfile", softProfile,
                List.of(SoftProfile.values()).stream().map(PropertyCheck::text).toList(), SoftProfile::of);
        return new DeviceSelection(p, device == null ? "" : device.trim(), profile);
    }

    /** The prefix of a {@code device} value that names a GID: {@code gid:fe80::200:5eff:fe00:1}. */
    public static final String GID_PREFIX = "gid:";

    /**
     * Opens the device, chosen stably and logged (SRQRA0050; SRQRA0051 when a choice was not made
     * explicit) — the {@code device} property is one of:
     * <ul>
     *   <li>empty: the soft profile's device on the soft provider; on ibverbs the only device, or,
     *       when there are several, the first by name (not the order of ibv_get_device_list(3), which
     *       may change across boots) with a WARN naming the others;</li>
     *   <li>an IP address literal ({@code 10.77.0.1}, {@code fe80::1}): the device whose interface has
     *       it, as rdma_cm finds it (rdma_bind_addr(3)); on the soft provider an address of the soft
     *       host that is no device's GID means the soft profile's device;</li>
     *   <li>{@code gid:} and a GID in IPv6 notation ({@code gid:::ffff:10.77.0.1}): the device with
     *       that GID in a port's GID table (ibv_query_gid(3));</li>
     *   <li>anything else: a device name ({@code rxe0}, {@code mlx5_0}).</li>
     * </ul>
     *
     * @param who what the device is for, for the log line (e.g. {@code activation of OrdersBean}); null
     *            logs nothing (a probe)
     * @return the open context
     * @throws VerbsException ENODEV when the provider lists no device (or not the named one, or none
     *                        has the GID), EADDRNOTAVAIL for an address no RDMA device's interface has,
     *                        EINVAL for a malformed GID, ENOSYS when the provider cannot run here, or
     *                        the errno of opening the device
     */
    public Context open(String who) throws VerbsException {
        VerbsProvider p = Verbs.provider(provider.verbsName());
        boolean soft = Verbs.SOFT.equals(p.name());
        if (device.startsWith(GID_PREFIX)) {
            byte[] gid = gid(device.substring(GID_PREFIX.length()));
            for (DeviceInfo d : sorted(p)) {
                Context c = p.open(d.name());
                if (hasGid(c, gid)) {
                    chosen(who, c.deviceName(), "by GID " + device.substring(GID_PREFIX.length())
                            + " (ibv_query_gid)");
                    return c;
                }
                c.close();
            }
            throw new VerbsException("ibv_query_gid", Errno.ENODEV, "no device of provider " + p.name()
                    + " has GID " + device.substring(GID_PREFIX.length()) + " (device=" + device + ")");
        }
        java.net.InetAddress address = address(device);
        if (address != null) {
            Optional<String> bound = p.deviceOfAddress(address);
            String name = bound.orElse(soft ? softProfile.deviceName() : null);
            if (name == null) {
                throw new VerbsException("rdma_bind_addr", Errno.EADDRNOTAVAIL, "device=" + device
                        + " binds no particular RDMA device; name an address of one device's interface");
            }
            chosen(who, name, "by interface address " + device + " (rdma_bind_addr"
                    + (bound.isEmpty() ? "; a soft host address of no device: softProfile " + PropertyCheck.text(softProfile) : "")
                    + ")");
            return p.open(name);
        }
        if (!device.isEmpty()) {
            Context c = p.open(device);
            chosen(who, device, "by name");
            return c;
        }
        if (soft) {
            chosen(who, softProfile.deviceName(), "as softProfile " + PropertyCheck.text(softProfile)
                    + " on provider soft");
            return p.open(softProfile.deviceName());
        }
        List<DeviceInfo> all = sorted(p);
        if (all.isEmpty()) {
            throw new VerbsException("ibv_get_device_list", Errno.ENODEV, "provider " + p.name() + " lists no device");
        }
        String first = all.getFirst().name();
        if (all.size() == 1) {
            chosen(who, first, "as the only device of provider " + p.name());
        } else {
            if (who != null) {
                RaLogger.LOG.deviceNotNamed(who, p.name(), all.stream().map(DeviceInfo::name).toList(), first);
            }
        }
        return p.open(first);
    }

    private static void chosen(String who, String device, String why) {
        if (who != null) {
            RaLogger.LOG.deviceChosen(who, device, why);
        }
    }

    /** {@return the provider's devices sorted by name: an order that does not change across boots} */
    private static List<DeviceInfo> sorted(VerbsProvider p) throws VerbsException {
        return p.devices().stream().sorted(java.util.Comparator.comparing(DeviceInfo::name)).toList();
    }

    private static boolean hasGid(Context c, byte[] gid) throws VerbsException {
        int ports = c.queryDevice().physPortCnt();
        for (int port = 1; port <= ports; port++) {
            int len = c.queryPort(port).gidTblLen();
            for (int i = 0; i < len; i++) {
                if (java.util.Arrays.equals(gid, c.queryGid(port, i))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** {@return the 16 bytes of a GID written in IPv6 notation} */
    private static byte[] gid(String text) throws VerbsException {
        try {
            java.net.InetAddress a = java.net.InetAddress.ofLiteral(text.trim());
            byte[] b = a.getAddress();
            if (b.length == 16) {
                return b;
            }
            byte[] mapped = new byte[16];
            mapped[10] = (byte) 0xff;
            mapped[11] = (byte) 0xff;
            System.arraycopy(b, 0, mapped, 12, 4);
            return mapped;
        } catch (IllegalArgumentException e) {
            throw new VerbsException("ibv_query_gid", Errno.EINVAL, "device=" + GID_PREFIX + text
                    + ": a GID is written in IPv6 notation, e.g. gid:fe80::200:5eff:fe00:1");
        }
    }

    /** {@return the address a device value names, or null when it is not an IP literal (a name)} */
    private static java.net.InetAddress address(String device) {
        if (device.isEmpty() || !(device.indexOf('.') >= 0 || device.indexOf(':') >= 0)) {
            return null;
        }
        try {
            return java.net.InetAddress.ofLiteral(device);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    @Override
    public String toString() {
        return "provider " + provider.verbsName() + (device.isEmpty() ? ", its only device or the first by name (soft: "
                + softProfile.deviceName() + ")" : ", device " + device);
    }
}
