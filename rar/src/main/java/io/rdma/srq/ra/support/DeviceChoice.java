package io.rdma.srq.ra.support;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.DeviceInfo;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.VerbsProvider;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Finds and opens the device a {@link DeviceSelection} means, stably across boots, and says which
 * and why (SRQRA0050, SRQRA0051): by name, by interface address (rdma_bind_addr(3)), by GID
 * (ibv_query_gid(3)), or — none named — the only device or the first by name.
 */
final class DeviceChoice {
    private DeviceChoice() {
    }

    /**
     * @param selection the provider, the device text and the soft profile
     * @param who       what the device is for, for the log line; null logs nothing
     * @return the open context
     * @throws VerbsException as {@link DeviceSelection#open(String)}
     */
    static Context open(DeviceSelection selection, String who) throws VerbsException {
        String device = selection.device();
        VerbsProvider p = Verbs.provider(selection.provider().verbsName());
        boolean soft = Verbs.SOFT.equals(p.name());
        if (device.startsWith(DeviceSelection.GID_PREFIX)) {
            return byGid(p, device.substring(DeviceSelection.GID_PREFIX.length()), who);
        }
        InetAddress address = address(device);
        if (address != null) {
            Optional<String> bound = p.deviceOfAddress(address);
            String name = bound.orElse(soft ? selection.softProfile().deviceName() : null);
            if (name == null) {
                throw new VerbsException("rdma_bind_addr", Errno.EADDRNOTAVAIL, "device=" + device
                        + " binds no particular RDMA device; name an address of one device's interface");
            }
            chosen(who, name, "by interface address " + device + " (rdma_bind_addr" + (bound.isEmpty()
                    ? "; a soft host address of no device: softProfile " + PropertyCheck.text(selection.softProfile())
                    : "") + ")");
            return p.open(name);
        }
        if (!device.isEmpty()) {
            Context c = p.open(device);
            chosen(who, device, "by name");
            return c;
        }
        if (soft) {
            String name = selection.softProfile().deviceName();
            chosen(who, name, "as softProfile " + PropertyCheck.text(selection.softProfile()) + " on provider soft");
            return p.open(name);
        }
        List<DeviceInfo> all = sorted(p);
        if (all.isEmpty()) {
            throw new VerbsException("ibv_get_device_list", Errno.ENODEV, "provider " + p.name() + " lists no device");
        }
        String first = all.getFirst().name();
        if (all.size() == 1) {
            chosen(who, first, "as the only device of provider " + p.name());
        } else if (who != null) {
            RaLogger.LOG.deviceNotNamed(who, p.name(), all.stream().map(DeviceInfo::name).toList(), first);
        }
        return p.open(first);
    }

    private static Context byGid(VerbsProvider p, String text, String who) throws VerbsException {
        byte[] gid = gid(text);
        for (DeviceInfo d : sorted(p)) {
            Context c = p.open(d.name());
            try {
                if (hasGid(c, gid)) {
                    chosen(who, c.deviceName(), "by GID " + text + " (ibv_query_gid)");
                    return c;
                }
            } catch (RuntimeException e) {
                c.close();
                throw e;
            }
            c.close();
        }
        throw new VerbsException("ibv_query_gid", Errno.ENODEV, "no device of provider " + p.name() + " has GID "
                + text + " (device=" + DeviceSelection.GID_PREFIX + text + ")");
    }

    private static void chosen(String who, String device, String why) {
        if (who != null) {
            RaLogger.LOG.deviceChosen(who, device, why);
        }
    }

    /** {@return the provider's devices sorted by name: an order that does not change across boots} */
    private static List<DeviceInfo> sorted(VerbsProvider p) throws VerbsException {
        return p.devices().stream().sorted(Comparator.comparing(DeviceInfo::name)).toList();
    }

    private static boolean hasGid(Context c, byte[] gid) throws VerbsException {
        int ports = c.queryDevice().physPortCnt();
        for (int port = 1; port <= ports; port++) {
            int len = c.queryPort(port).gidTblLen();
            for (int i = 0; i < len; i++) {
                if (Arrays.equals(gid, c.queryGid(port, i))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** {@return the 16 bytes of a GID written in IPv6 notation (an IPv4 literal as its IPv4-mapped GID)} */
    private static byte[] gid(String text) throws VerbsException {
        try {
            return DeviceSelection.gid(text);
        } catch (IllegalArgumentException e) { // a DeviceSelection made without parse
            throw new VerbsException("ibv_query_gid", Errno.EINVAL, e.getMessage());
        }
    }

    /** {@return the address a device value names, or null when it is not an IP literal (a name)} */
    private static InetAddress address(String device) {
        if (device.isEmpty() || !(device.indexOf('.') >= 0 || device.indexOf(':') >= 0)) {
            return null;
        }
        try {
            return IpLiteral.parse(device);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
