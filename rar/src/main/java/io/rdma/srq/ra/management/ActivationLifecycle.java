package io.rdma.srq.ra.management;

import io.rdma.srq.api.ActivationState;

/**
 * Where an activation is in its life, for the statistics table.
 *
 * @param state            its state now ({@link ActivationState#code()}: 0 STARTING, 1 ACTIVE,
 *                         2 RECOVERING, 3 STOPPED, 4 FAILED)
 * @param recoveries       times it came back ACTIVE after losing its device
 * @param lostAtDeviceLoss messages acknowledged to their senders and lost with a device (left in the
 *                         CQ or in batches not begun when a lost run's drain ended)
 */
public record ActivationLifecycle(ActivationState state, long recoveries, long lostAtDeviceLoss) {
}
