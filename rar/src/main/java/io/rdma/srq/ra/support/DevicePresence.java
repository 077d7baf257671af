package io.rdma.srq.ra.support;

import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.Verbs;

import java.time.Duration;

/**
 * Watches whether an open device is still listed by its provider (ibv_get_device_list(3)), at most
 * once per period: the one sign of a device being removed that reaches an owner holding no rdma_cm
 * id on it (a pooled connection without peers, an activation listening on a wildcard address, whose
 * per-device listen ids the kernel destroys without an event: cma.c, cma_listen_handler).
 *
 * <p>Why the list shows it: a device being unregistered loses its DEVICE_REGISTERED mark before its
 * clients are removed (kernel drivers/infiniband/core/device.c, disable_device), so the netlink dump
 * libibverbs lists devices from no longer has it, and ib_uverbs_remove_one deletes the uverbs char
 * device (cdev_device_del) before it waits for the device's users to close (rxe, with no
 * disassociate_ucontext). The soft device leaves a removed device out of its list
 * ({@code SoftProvider.removeDevice}). Read from the kernel source, not yet seen in the lab.
 */
public final class DevicePresence {
    /** How often the list is read by default: a removal waits at most this long for an idle owner to notice. */
    public static final Duration PERIOD = Duration.ofSeconds(1);

    private final String provider;
    private final String device;
    private final long periodNanos;
    private long next;

    /**
     * @param context the open device
     * @param period  the least time between two reads of the list
     */
    public DevicePresence(Context context, Duration period) {
        this.provider = context.providerName();
        this.device = context.deviceName();
        this.periodNanos = period.toNanos();
        this.next = System.nanoTime() + periodNanos;
    }

    /**
     * Reads the device list when a period has passed since the last read; not thread-safe (one
     * owner's loop calls it).
     *
     * @return false only when the list was read now and no longer names the device
     */
    public boolean stillListed() {
        long now = System.nanoTime();
        if (now - next < 0) {
            return true;
        }
        next = now + periodNanos;
        try {
            return Verbs.provider(provider).devices().stream().anyMatch(d -> d.name().equals(device));
        } catch (RuntimeException e) {
            return true; // the provider cannot list now: no evidence of a removal
        }
    }

    /** @return the device watched */
    public String device() {
        return device;
    }

    /**
     * Asks the provider's libraries to let go of devices no longer listed
     * ({@link io.rdma.srq.verbs.VerbsProvider#releaseRemovedDevices}: librdmacm keeps a context of
     * every device it has used until then), after the caller closed its own objects of a removed
     * device; quiet on failure (nothing more can be done).
     *
     * @param provider the provider's name ({@code ibverbs}, {@code soft})
     */
    public static void releaseRemoved(String provider) {
        try {
            Verbs.provider(provider).releaseRemovedDevices();
        } catch (RuntimeException e) {
            // the provider is gone as well: it holds nothing
        }
    }
}
