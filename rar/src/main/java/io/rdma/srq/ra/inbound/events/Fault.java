package io.rdma.srq.ra.inbound.events;

import io.rdma.srq.api.Errno;

/**
 * Why an activation's run ends and a new one is opened — its device is lost, or one of its loops
 * died — or why opening it failed.
 *
 * @param what       the event or failure, for people: {@code IBV_EVENT_DEVICE_FATAL},
 *                   {@code IBV_EVENT_PORT_ERR on port 1}, {@code RDMA_CM_EVENT_DEVICE_REMOVAL}, a
 *                   loop's failure, or an open error's message
 * @param errno      its errno: EIO for DEVICE_FATAL, ENETDOWN for a port error, ENODEV for removal;
 *                   the open error's, or null when it has none (a loop's failure)
 * @param deviceGone whether the device went with it: what the run cannot deliver is then lost with
 *                   the device ({@code lost-at-device-loss}); false for a loop's failure on a working
 *                   device (what is left is {@code undelivered})
 */
public record Fault(String what, Errno errno, boolean deviceGone) {

    private Fault(String what, Errno errno) {
        this(what, errno, true);
    }

    /**
     * One of the run's loops ended on a failure (an exception, or an Error such as
     * OutOfMemoryError) while it should have gone on: the run cannot serve any more.
     *
     * @param loop    the loop's thread name, e.g. {@code srq-poller-Orders}
     * @param failure what ended it
     * @return the fault, without errno
     */
    public static Fault loopFailed(String loop, Throwable failure) {
        return new Fault(loop + " ended on " + failure, null, false);
    }

    /** IBV_EVENT_DEVICE_FATAL (ibv_get_async_event(3)): the device is unusable; every context must be closed. */
    public static Fault deviceFatal() {
        return new Fault("IBV_EVENT_DEVICE_FATAL", Errno.EIO);
    }

    /** IBV_EVENT_PORT_ERR (ibv_get_async_event(3)) of {@code port}, and no port of the device is ACTIVE. */
    public static Fault portError(int port) {
        return new Fault("IBV_EVENT_PORT_ERR on port " + port + ", no port ACTIVE", Errno.ENETDOWN);
    }

    /** RDMA_CM_EVENT_DEVICE_REMOVAL (rdma_cm(7)): the device is going away; every id and object of it must be destroyed. */
    public static Fault deviceRemoval() {
        return new Fault("RDMA_CM_EVENT_DEVICE_REMOVAL", Errno.ENODEV);
    }

    /** The device is no longer listed by its provider (ibv_get_device_list(3)): it is being removed. */
    public static Fault deviceUnlisted() {
        return new Fault("no longer listed by ibv_get_device_list (being removed)", Errno.ENODEV);
    }

    /** {@return the errno name, or null} */
    public String errnoName() {
        return errno == null ? null : errno.name();
    }
}
