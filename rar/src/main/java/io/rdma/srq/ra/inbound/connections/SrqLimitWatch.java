package io.rdma.srq.ra.inbound.connections;

import io.rdma.srq.api.SrqLimitReached;

/**
 * What the receive side does at IBV_EVENT_SRQ_LIMIT_REACHED, which the control loop takes from the
 * device's async events: the event is one-shot (ibv_modify_srq(3): srq_limit must be armed again
 * after it fired), so the receive buffers raise their fill level by the replenish policy, have their
 * next top-up re-arm the limit, and describe the event for the application's observers. Called on the
 * control loop's thread only.
 */
public interface SrqLimitWatch {

    /**
     * @param srqName the activation's srqName, for the event
     * @param device  the device's name, for the event
     * @return the event to hand to the observers: the limit, the receive WRs still posted, the time
     */
    SrqLimitReached onLimitReached(String srqName, String device);
}
