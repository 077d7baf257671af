package io.rdma.srq.ra.support;

import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.soft.SoftProfile;
import jakarta.resource.spi.InvalidPropertyException;

import java.util.List;
import java.util.Objects;

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
        SOFT(Verbs.SOFT),
        /** libfabric's reliable connected endpoints on a shared receive context (device: the libfabric provider, tcp). */
        FABRIC(io.rdma.srq.verbs.fabric.FabricProvider.NAME);

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
     * @param provider    provider text: auto | ibverbs | soft | fabric
     * @param device      device text, empty (or null) for the first
     * @param softProfile softProfile text: a {@link SoftProfile} by {@link SoftProfile#of} (rxe | mlx5 | efa)
     * @return the selection
     * @throws InvalidPropertyException {@code provider must be one of auto, ibverbs, soft, fabric, got 'x'}, or
     *                                  the same for softProfile
     */
    public static DeviceSelection parse(PropertyCheck check, String provider, String device, String softProfile)
            throws InvalidPropertyException {
        Provider p = check.oneOf("provider", provider, List.of(Provider.values()), Provider::verbsName);
        SoftProfile profile = check.parse("softProfile", softProfile,
                List.of(SoftProfile.values()).stream().map(PropertyCheck::text).toList(), SoftProfile::of);
        String d = device == null ? "" : device.trim();
        if (d.startsWith(GID_PREFIX)) {
            try {
                gid(d.substring(GID_PREFIX.length()));
            } catch (IllegalArgumentException e) {
                throw check.invalid("device", e.getMessage());
            }
        }
        return new DeviceSelection(p, d, profile);
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
        return DeviceChoice.open(this, who);
    }

    @Override
    public String toString() {
        return "provider " + provider.verbsName() + (device.isEmpty() ? ", its only device or the first by name (soft: "
                + softProfile.deviceName() + ")" : ", device " + device);
    }

    /**
     * @param text a GID in IPv6 notation (an IPv4 literal stands for its IPv4-mapped GID, as RoCE v2
     *             writes it: {@code ::ffff:10.77.0.1})
     * @return its 16 bytes, as ibv_query_gid(3) returns them
     * @throws IllegalArgumentException naming the notation when {@code text} is none
     */
    static byte[] gid(String text) {
        try {
            byte[] b = IpLiteral.parse(text).getAddress();
            if (b.length == 16) {
                return b;
            }
            byte[] mapped = new byte[16];
            mapped[10] = (byte) 0xff;
            mapped[11] = (byte) 0xff;
            System.arraycopy(b, 0, mapped, 12, 4);
            return mapped;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("device=" + GID_PREFIX + text
                    + ": a GID is written in IPv6 notation, e.g. gid:fe80::200:5eff:fe00:1");
        }
    }
}
