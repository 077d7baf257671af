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

/**
 * Which device a configuration means, properties {@code provider}, {@code device} and
 * {@code softProfile} as the connection definition and the activation both have them, parsed once.
 *
 * @param provider    the verbs provider
 * @param device      a device name, or empty for the provider's first (for the soft provider: the
 *                    device of {@code softProfile})
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

    /**
     * Opens the device: the named one, else the soft profile's device on the soft provider, else
     * the provider's first device.
     *
     * @return the open context
     * @throws VerbsException ENODEV when the provider lists no device (or not the named one), ENOSYS
     *                        when the provider cannot run here, or the errno of opening the device
     */
    public Context open() throws VerbsException {
        VerbsProvider p = Verbs.provider(provider.verbsName());
        if (!device.isEmpty()) {
            return p.open(device);
        }
        if (Verbs.SOFT.equals(p.name())) {
            return p.open(softProfile.deviceName());
        }
        String first = p.devices().stream().findFirst().map(DeviceInfo::name).orElseThrow(() -> new VerbsException(
                "ibv_get_device_list", Errno.ENODEV, "provider " + p.name() + " lists no device"));
        return p.open(first);
    }

    @Override
    public String toString() {
        return "provider " + provider.verbsName() + (device.isEmpty() ? ", its first device (soft: "
                + softProfile.deviceName() + ")" : ", device " + device);
    }
}
