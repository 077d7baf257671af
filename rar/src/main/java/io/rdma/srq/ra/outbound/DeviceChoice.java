package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.DeviceInfo;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.VerbsProvider;

import java.util.List;

/** Which provider and device a configuration means. */
final class DeviceChoice {
    private DeviceChoice() {
    }

    static VerbsProvider provider(SrqConfig config) throws VerbsException {
        return Verbs.provider(config.provider());
    }

    /**
     * @return the configured device, or the provider's first (for the soft provider: the first of
     *         the configured profile)
     */
    static String deviceName(VerbsProvider provider, SrqConfig config) throws VerbsException {
        if (!config.device().isEmpty()) {
            return config.device();
        }
        List<DeviceInfo> devices = provider.devices();
        return devices.stream()
                .filter(d -> !Verbs.SOFT.equals(provider.name()) || d.name().contains(config.softProfile()))
                .findFirst()
                .map(DeviceInfo::name)
                .orElseThrow(() -> new VerbsException("ibv_get_device_list", Errno.ENODEV, "provider "
                        + provider.name() + " lists no device" + (Verbs.SOFT.equals(provider.name())
                        ? " of profile " + config.softProfile() : "")));
    }
}
