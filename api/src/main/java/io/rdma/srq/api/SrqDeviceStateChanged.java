package io.rdma.srq.api;

import java.time.Instant;
import java.util.Optional;

/**
 * A CDI event: a message-endpoint activation changed its {@link ActivationState} — it came up late,
 * lost its device, is recovering, recovered, failed for good or stopped. Observe it with
 * {@code @Observes} or {@code @ObservesAsync SrqDeviceStateChanged}; it is fired on a Work of its
 * own with the activating application's class loader, never on the thread that handles device
 * events. A class, not a record, so that it can gain fields without breaking observers.
 */
public final class SrqDeviceStateChanged {
    private final String activation;
    private final String device;
    private final ActivationState from;
    private final ActivationState to;
    private final String errno;
    private final String cause;
    private final Instant time;

    /**
     * A change of state.
     *
     * @param activation the activation's name (its srqName, else the MDB class's simple name)
     * @param device     the RDMA device it uses or tries to open (e.g. rxe0, soft_rxe0)
     * @param from       the state before
     * @param to         the state now
     * @param errno      the errno name of the cause (ENODEV, EIO, ENETDOWN, EADDRNOTAVAIL, …), or null
     *                   when the change has none (recovered, stopped)
     * @param cause      what happened, for people (e.g. {@code IBV_EVENT_DEVICE_FATAL}), never null
     * @param time       when
     */
    public SrqDeviceStateChanged(String activation, String device, ActivationState from, ActivationState to,
                                 String errno, String cause, Instant time) {
        this.activation = activation;
        this.device = device;
        this.from = from;
        this.to = to;
        this.errno = errno;
        this.cause = cause;
        this.time = time;
    }

    /** {@return the activation's name (srqName, else the MDB class's simple name)} */
    public String activation() {
        return activation;
    }

    /** {@return the RDMA device} */
    public String device() {
        return device;
    }

    /** {@return the state before} */
    public ActivationState from() {
        return from;
    }

    /** {@return the state now} */
    public ActivationState to() {
        return to;
    }

    /** {@return the errno name of the cause (ENODEV, EIO, ENETDOWN, …), empty when there is none} */
    public Optional<String> errno() {
        return Optional.ofNullable(errno);
    }

    /** {@return what happened, e.g. IBV_EVENT_DEVICE_FATAL or the open error's message} */
    public String cause() {
        return cause;
    }

    /** {@return when it happened} */
    public Instant time() {
        return time;
    }

    @Override
    public String toString() {
        return "SrqDeviceStateChanged[" + activation + " on " + device + ": " + from + " -> " + to
                + (errno == null ? "" : " (" + errno + ")") + ", " + cause + "]";
    }
}
