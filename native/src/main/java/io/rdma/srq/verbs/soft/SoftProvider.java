package io.rdma.srq.verbs.soft;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.DeviceInfo;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.VerbsProvider;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The soft device ({@code provider=soft}): an in-JVM verbs provider with the semantics, limits and
 * errno values of a real device, chosen by {@link SoftProfile}. It needs no kernel module, no
 * library and no privilege, and is the embedded default where libibverbs lists no device.
 *
 * <p>Devices, in {@link #devices()} order (ibv_get_device_list(3) order; the first is the default):
 * <ol>
 *   <li>{@code soft_rxe0}: {@link SoftProfile#RXE}, Soft-RoCE as measured on rxe0;</li>
 *   <li>{@code soft_mlx5_0}: {@link SoftProfile#MLX5}, a ConnectX-5;</li>
 *   <li>{@code soft_efa0}: {@link SoftProfile#EFA}, an AWS EFA (no SRQ).</li>
 * </ol>
 * All contexts of all soft devices in one JVM share one fabric: a soft RC QP connects to any other
 * soft QP by its {@link io.rdma.srq.verbs.RcEndpoint} (see {@link io.rdma.srq.verbs.soft} for what the
 * fabric does). Every instance of this class sees the same devices.
 */
public final class SoftProvider implements VerbsProvider {

    /** Public for {@link java.util.ServiceLoader}. */
    public SoftProvider() {
    }

    /** {@return {@code soft} ({@link Verbs#SOFT})} */
    @Override
    public String name() {
        return Verbs.SOFT;
    }

    /** {@return always empty: the soft device runs everywhere} */
    @Override
    public Optional<String> unavailableReason() {
        return Optional.empty();
    }

    /** {@return one device per {@link SoftProfile}, rxe first; node GUIDs in host order} */
    @Override
    public List<DeviceInfo> devices() {
        List<DeviceInfo> list = new ArrayList<>();
        for (SoftProfile p : SoftProfile.values()) {
            list.add(new DeviceInfo(p.deviceName(), p.nodeGuid(), name()));
        }
        return list;
    }

    /**
     * Opens a soft device, like ibv_open_device(3).
     *
     * @param deviceName {@code soft_rxe0}, {@code soft_mlx5_0} or {@code soft_efa0}
     * @return a new context; close it when done
     * @throws VerbsException {@code ENODEV} naming the soft devices if there is no such device
     */
    @Override
    public Context open(String deviceName) throws VerbsException {
        for (SoftProfile p : SoftProfile.values()) {
            if (p.deviceName().equals(deviceName)) {
                return new SoftContext(SoftFabric.device(p));
            }
        }
        throw new VerbsException("ibv_open_device", Errno.ENODEV, "no soft device '" + deviceName + "'; available: "
                + String.join(", ", devices().stream().map(DeviceInfo::name).toList()));
    }

    /**
     * The soft rdma_cm's answer: the soft device one of whose GIDs the address is ({@code 10.77.1.n},
     * its link-local {@code fe80::}); empty for the soft host's other addresses (loopback, the
     * wildcard, {@code io.rdma.srq.soft.addresses}), which bind no particular device.
     *
     * @throws VerbsException EADDRNOTAVAIL for an address the soft host does not have
     */
    @Override
    public java.util.Optional<String> deviceOfAddress(java.net.InetAddress address) throws VerbsException {
        if (!SoftAddresses.owned(address)) {
            throw new VerbsException("rdma_bind_addr", Errno.EADDRNOTAVAIL, address.getHostAddress()
                    + " is not an address of an RDMA device; the soft host has " + SoftAddresses.describe());
        }
        return SoftAddresses.deviceOf(address).map(SoftDevice::name);
    }

    /**
     * Opens the device of a profile.
     *
     * @param profile the profile
     * @return a new context on {@link SoftProfile#deviceName()}
     */
    public Context open(SoftProfile profile) {
        return new SoftContext(SoftFabric.device(profile));
    }

    /** {@return the default soft device's name, {@code soft_rxe0}} */
    public static String defaultDeviceName() {
        return SoftProfile.RXE.deviceName();
    }

    /**
     * The number of soft objects (contexts, PDs, MRs, CQs, channels, SRQs, QPs, XRC domains) created
     * and not yet closed, in this JVM, over all soft devices: for tests that assert nothing leaks.
     *
     * @return the live object count, ≥ 0
     */
    public static int liveObjects() {
        return SoftFabric.LIVE.get();
    }

    /**
     * The bytes of memory registered (ibv_reg_mr(3) lengths) in soft MRs not yet deregistered, in
     * this JVM, over all soft devices: for benchmarks and tests of what registered memory costs.
     *
     * @return registered bytes, ≥ 0
     */
    public static long registeredBytes() {
        return SoftFabric.REGISTERED.get();
    }

    /**
     * Simulates a device fault, as a firmware error or a hot-unplug of a real HCA does: every open
     * context of the device gets IBV_EVENT_DEVICE_FATAL (ibv_get_async_event(3)) on its async event
     * queue. The soft device keeps working otherwise; use it to test what an application does on
     * device loss.
     *
     * @param deviceName e.g. {@code soft_rxe0}
     * @return how many contexts were told
     * @throws IllegalArgumentException for an unknown soft device
     */
    public static int raiseDeviceFatal(String deviceName) {
        return raise(deviceName, io.rdma.srq.api.AsyncEventType.DEVICE_FATAL, 0);
    }

    /**
     * Simulates a port going down (the link of a real port failing): IBV_EVENT_PORT_ERR for
     * {@code port} on every open context of the device.
     *
     * @param deviceName e.g. {@code soft_rxe0}
     * @param port       the port number
     * @return how many contexts were told
     * @throws IllegalArgumentException for an unknown soft device
     */
    public static int raisePortError(String deviceName, int port) {
        return raise(deviceName, io.rdma.srq.api.AsyncEventType.PORT_ERR, port);
    }

    private static int raise(String deviceName, io.rdma.srq.api.AsyncEventType type, int port) {
        SoftDevice device = SoftFabric.device(SoftProfile.of(deviceName));
        device.contexts().forEach(c -> c.queuePortEvent(type, port));
        return device.contexts().size();
    }
}
