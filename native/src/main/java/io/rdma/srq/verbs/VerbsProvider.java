package io.rdma.srq.verbs;

import io.rdma.srq.api.VerbsException;

import java.util.List;
import java.util.Optional;

/**
 * A source of verbs devices, found with {@link java.util.ServiceLoader}: {@code ibverbs} (libibverbs
 * through FFM) and {@code soft} (the embedded soft device). Pick one with {@link Verbs#provider(String)}.
 */
public interface VerbsProvider {

    /** {@return the provider's name: {@code ibverbs} or {@code soft}} */
    String name();

    /**
     * {@return empty if the provider can be used here, else why not (e.g. "libibverbs.so.1 not
     *         found: install Debian's libibverbs1 and ibverbs-providers")}
     */
    Optional<String> unavailableReason();

    /**
     * Lists the devices, like ibv_get_device_list(3).
     *
     * @return the devices; empty where the library is present but no device exists
     * @throws VerbsException the errno of ibv_get_device_list (e.g. {@code ENOSYS} without kernel
     *                        support) or {@code ENOSYS} if the provider is unavailable
     */
    List<DeviceInfo> devices() throws VerbsException;

    /**
     * Opens a device, like ibv_open_device(3).
     *
     * @param deviceName a name from {@link #devices()}
     * @return the open context; close it when done
     * @throws VerbsException {@code ENODEV} naming the device and listing those available if there
     *                        is no such device; else the errno of ibv_open_device
     */
    Context open(String deviceName) throws VerbsException;

    /**
     * The device an interface address belongs to, as rdma_cm finds it: rdma_bind_addr(3) of a new
     * rdma_cm id to {@code address}, then the device the id is bound to ({@code id->verbs}); the id
     * is destroyed before this returns. Stable across boots, unlike the order of
     * ibv_get_device_list(3).
     *
     * @param address an IP address of a netdev (rxe: the netdev it was added on)
     * @return the device name; empty for an address that binds no particular device (the wildcard,
     *         and on the soft device loopback and the soft host's other addresses)
     * @throws VerbsException EADDRNOTAVAIL when no interface has the address (rdma_bind_addr), ENOSYS
     *                        when the provider cannot run here
     */
    Optional<String> deviceOfAddress(java.net.InetAddress address) throws VerbsException;

    /**
     * Lets the provider's libraries let go of devices that are no longer listed (being removed), so
     * that a removal that waits for every user of the device (rxe: driver note 23) can complete once
     * the caller has closed its own objects of it. librdmacm keeps an {@code ibv_context} per device
     * it has bound an id to, after the last id is gone too, and closes it only when
     * rdma_get_devices(3) finds the device missing from ibv_get_device_list(3) — and not at all when
     * the list has become empty (rdma-core librdmacm/cma.c: {@code ucma_put_device} keeps
     * {@code verbs}, {@code sync_devices_list} returns ENODEV for an empty list before it calls
     * {@code remove_cma_dev}). Nothing by default (the soft device keeps nothing).
     */
    default void releaseRemovedDevices() {
    }
}
