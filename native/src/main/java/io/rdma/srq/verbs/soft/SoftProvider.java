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

    /** {@return one device per {@link SoftProfile} that is present ({@link #removeDevice}), rxe first; node GUIDs in host order} */
    @Override
    public List<DeviceInfo> devices() {
        List<DeviceInfo> list = new ArrayList<>();
        for (SoftProfile p : SoftProfile.values()) {
            if (SoftFabric.device(p).present()) {
                list.add(new DeviceInfo(p.deviceName(), p.nodeGuid(), name()));
            }
        }
        return list;
    }

    /**
     * Opens a soft device, like ibv_open_device(3).
     *
     * @param deviceName {@code soft_rxe0}, {@code soft_mlx5_0} or {@code soft_efa0}
     * @return a new context; close it when done
     * @throws VerbsException {@code ENODEV} naming the soft devices if there is no such device, or it
     *                        is removed ({@link #removeDevice}) and not yet added again
     */
    @Override
    public Context open(String deviceName) throws VerbsException {
        for (SoftProfile p : SoftProfile.values()) {
            if (p.deviceName().equals(deviceName) && SoftFabric.device(p).present()) {
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
     * Makes the next ibv_poll_cq(3) on any CQ of the device throw {@code failure}, once (whatever the
     * CQ holds stays there): for tests of what a caller's loop does when an Error such as
     * OutOfMemoryError escapes a poll. No real device does this; the soft device otherwise keeps working.
     *
     * @param deviceName e.g. {@code soft_mlx5_0}
     * @param failure    what the poll throws
     * @throws IllegalArgumentException for an unknown soft device
     */
    public static void failNextPoll(String deviceName, Error failure) {
        SoftFabric.device(SoftProfile.of(deviceName)).failNextPoll(java.util.Objects.requireNonNull(failure, "failure"));
    }

    /**
     * Simulates a port going down (the link of a real port failing): IBV_EVENT_PORT_ERR for
     * {@code port} on every open context of the device, and ibv_query_port(3) reads the port DOWN
     * until {@link #raisePortActive} (a port the device does not have changes no state: the event
     * alone, for tests of code that must ignore other ports' events).
     *
     * @param deviceName e.g. {@code soft_rxe0}
     * @param port       the port number
     * @return how many contexts were told
     * @throws IllegalArgumentException for an unknown soft device
     */
    public static int raisePortError(String deviceName, int port) {
        SoftFabric.device(SoftProfile.of(deviceName)).portState(port, io.rdma.srq.api.PortAttributes.STATE_DOWN);
        return raise(deviceName, io.rdma.srq.api.AsyncEventType.PORT_ERR, port);
    }

    /**
     * Simulates a port coming back (the link up again): ibv_query_port(3) reads it ACTIVE, and every
     * open context of the device gets IBV_EVENT_PORT_ACTIVE for {@code port} (ibv_get_async_event(3)).
     *
     * @param deviceName e.g. {@code soft_rxe0}
     * @param port       the port number
     * @return how many contexts were told
     * @throws IllegalArgumentException for an unknown soft device
     */
    public static int raisePortActive(String deviceName, int port) {
        SoftFabric.device(SoftProfile.of(deviceName)).portState(port, io.rdma.srq.api.PortAttributes.STATE_ACTIVE);
        return raise(deviceName, io.rdma.srq.api.AsyncEventType.PORT_ACTIVE, port);
    }

    /**
     * Simulates IBV_EVENT_QP_FATAL (ibv_get_async_event(3)): the QP of {@code qpNum} goes to ERROR
     * (its waiting sends flushed, as a QP hitting an error it cannot report in a completion) and its
     * context gets the event, naming the QP.
     *
     * @param qpNum a soft QP's number
     * @return whether such a QP is open
     */
    public static boolean raiseQpFatal(int qpNum) {
        SoftQueuePair qp = SoftFabric.qp(qpNum);
        if (qp == null || qp.isClosed()) {
            return false;
        }
        qp.moveToError();
        qp.softContext().queueEvent(io.rdma.srq.api.AsyncEventType.QP_FATAL, qp);
        return true;
    }

    /**
     * Simulates a peer that sends a connect request and, once accepted, never sends the RTU
     * ({@link SoftHalfOpenPeer}): the listener's accept succeeds, no ESTABLISHED follows.
     *
     * @param deviceName  the soft device the peer is on (its address: soft_rxe0 10.77.1.1, …)
     * @param remote      the listener's address
     * @param timeout     the longest wait for the accept
     * @param privateData what the request carries (a token, or nothing), ≤ 56 bytes
     * @return the half-open peer, once accepted; close it when done
     * @throws VerbsException as {@link Context#connect}: ECONNREFUSED when rejected or no listener,
     *                        ETIMEDOUT without an answer; nothing is left open
     * @throws IllegalArgumentException for an unknown soft device
     */
    public static SoftHalfOpenPeer connectWithoutRtu(String deviceName, java.net.InetSocketAddress remote,
                                                     java.time.Duration timeout, byte[] privateData)
            throws VerbsException {
        return SoftHalfOpenPeer.connect(SoftFabric.device(SoftProfile.of(deviceName)), remote, timeout, privateData);
    }

    /**
     * Removes a device the way {@code rdma link delete rxe0} removes rxe (a device without
     * disassociate_ucontext), and waits like it:
     * <ol>
     *   <li>from now on the device is not listed ({@link #devices()}) and opening it fails with ENODEV;</li>
     *   <li>every rdma_cm id bound to it — a listener on one of its addresses, an accepted or a
     *       connected id — gets RDMA_CM_EVENT_DEVICE_REMOVAL (rdma_cm(7); kernel
     *       drivers/infiniband/core/cma.c, cma_process_remove → cma_send_device_removal_put). A
     *       wildcard listener (0.0.0.0, ::) gets none: the kernel's per-device child ids of a
     *       wildcard listen are destroyed silently (cma.c, cma_listen_handler);</li>
     *   <li>no async event: ibv_get_async_event(3)'s IBV_EVENT_DEVICE_FATAL comes on removal only from
     *       drivers that can disassociate a user context (uverbs_main.c, ib_uverbs_remove_one →
     *       ib_uverbs_free_hw_resources); rxe cannot, so the removal waits
     *       ({@code wait_for_completion(&uverbs_dev->comp)}) until every process has closed its
     *       contexts of the device.</li>
     * </ol>
     * This method waits, at most {@code wait}, until no context of the device is open; whatever the
     * outcome the device stays absent until {@link #addDevice}. Objects still open keep working (the
     * soft fabric does not tear them down), as rxe's do until they are closed.
     *
     * @param deviceName e.g. {@code soft_rxe0}
     * @param wait       the longest wait for the last context to close
     * @return whether every context of the device was closed within {@code wait}
     * @throws IllegalArgumentException for an unknown soft device
     */
    public static boolean removeDevice(String deviceName, java.time.Duration wait) {
        SoftDevice device = SoftFabric.device(SoftProfile.of(deviceName));
        device.present(false);
        long deadline = System.nanoTime() + wait.toNanos();
        while (!device.contexts().isEmpty()) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return device.contexts().isEmpty();
            }
        }
        return true;
    }

    /**
     * Adds a removed device again ({@code rdma link add rxe0 type rxe netdev ...}): it is listed and
     * opens again, its port ACTIVE; nothing is announced to existing contexts (there are none of it).
     *
     * @param deviceName e.g. {@code soft_rxe0}
     * @throws IllegalArgumentException for an unknown soft device
     */
    public static void addDevice(String deviceName) {
        SoftFabric.device(SoftProfile.of(deviceName)).present(true);
    }

    /**
     * {@return the open contexts of a soft device, 0 when every user has closed it}
     *
     * @param deviceName e.g. {@code soft_rxe0}
     */
    public static int openContexts(String deviceName) {
        return SoftFabric.device(SoftProfile.of(deviceName)).contexts().size();
    }

    private static int raise(String deviceName, io.rdma.srq.api.AsyncEventType type, int port) {
        SoftDevice device = SoftFabric.device(SoftProfile.of(deviceName));
        device.contexts().forEach(c -> c.queuePortEvent(type, port));
        return device.contexts().size();
    }
}
