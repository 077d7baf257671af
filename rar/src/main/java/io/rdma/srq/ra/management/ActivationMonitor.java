package io.rdma.srq.ra.management;

import io.rdma.srq.api.ActivationStatistics;

import java.util.Optional;

/**
 * The interface of the {@link SrqActivationMonitor} admin object (what its JNDI name gives): the
 * activation it watches.
 */
public interface ActivationMonitor {

    /** @return the watched activation's srqName */
    String getSrqName();

    /** @return the watched activation's counters now, empty while it does not run */
    Optional<ActivationStatistics> activationStatistics();
}
