package io.rdma.srq.ra.management;

import java.util.List;

/** Whoever runs activations (the resource adapter) and can show them to the statistics table. */
@FunctionalInterface
public interface ActivationViews {

    /** @return one view per running activation; empty when none runs */
    List<ActivationView> activationViews();
}
