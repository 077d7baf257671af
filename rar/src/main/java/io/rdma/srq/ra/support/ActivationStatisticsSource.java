package io.rdma.srq.ra.support;

import io.rdma.srq.api.ActivationStatistics;

import java.util.List;

/**
 * The counters of the message-endpoint activations a resource adapter runs, as its connection
 * factories report them ({@link io.rdma.srq.api.SrqConnectionFactory#activationStatistics()}):
 * implemented by the resource adapter, so the outbound side needs no reference to it.
 */
@FunctionalInterface
public interface ActivationStatisticsSource {

    /** @return one snapshot per running activation; empty when none runs */
    List<ActivationStatistics> activationStatistics();
}
