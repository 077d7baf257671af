package io.rdma.srq.ra.management;

import io.rdma.srq.api.ActivationState;

/**
 * Where an activation is in its life, for the statistics table.
 *
 * @param state            its state now ({@link ActivationState#code()}: 0 STARTING, 1 ACTIVE,
 *                         2 RECOVERING, 3 STOPPED, 4 FAILED, 5 STANDBY, 6 DRAINED)
 * @param recoveries       times it came back ACTIVE after losing its device, or a loop of its run
 * @param lostAtDeviceLoss messages acknowledged to their senders and lost with a device (left in the
 *                         CQ or in batches not begun when a lost run's drain ended)
 * @param loopFailures     times a loop of its run (poller, control loop, connector) died on a failure,
 *                         each followed by a new run
 */
public record ActivationLifecycle(ActivationState state, long recoveries, long lostAtDeviceLoss, long loopFailures) {

    /**
     * Without loop failures.
     *
     * @param state            its state now
     * @param recoveries       times it came back ACTIVE
     * @param lostAtDeviceLoss messages lost with a device
     */
    public ActivationLifecycle(ActivationState state, long recoveries, long lostAtDeviceLoss) {
        this(state, recoveries, lostAtDeviceLoss, 0);
    }
}
