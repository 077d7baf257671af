package io.rdma.srq.ra.management;

import io.rdma.srq.api.ActivationStatistics;

/**
 * What the statistics table reads of one running activation, and what management may do to it.
 *
 * @param statistics its counters now
 * @param device     its device now
 * @param lifecycle  its state, recoveries and what was lost with a device
 * @param control    its endpoint, and what management may do to it
 */
public record ActivationView(ActivationStatistics statistics, DeviceState device, ActivationLifecycle lifecycle,
                             ActivationControl control) {
}
