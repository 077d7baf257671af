package io.rdma.srq.ra;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.DeviceInfo;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.VerbsProvider;

/** Opens the device a configuration means: provider auto|ibverbs|soft, a device name or the first one. */
public final class DeviceChoice {
    private DeviceChoice() {
    }

    /**
     * @param provider    auto | ibverbs | soft
     * @param device      a device name, or empty for the provider's first (for the soft provider: the
     *                    first of {@code softProfile})
     * @param softProfile the soft profile wanted when the soft provider is used
     * @return the open context
     * @throws VerbsException ENODEV naming what is missing, or the errno of opening the device
     */
    public static Context open(String provider, String device, String softProfile) throws VerbsException {
        VerbsProvider p = Verbs.provider(provider);
        if (!device.isEmpty()) {
            return p.open(device);
        }
        boolean soft = Verbs.SOFT.equals(p.name());
        String name = p.devices().stream()
                .filter(d -> !soft || d.name().contains(softProfile))
                .findFirst()
                .map(DeviceInfo::name)
                .orElseThrow(() -> new VerbsException("ibv_get_device_list", Errno.ENODEV, "provider " + p.name()
                        + " lists no device" + (soft ? " of profile " + softProfile : "")));
        return p.open(name);
    }
}
