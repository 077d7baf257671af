package io.rdma.srq.ra.management;

import io.rdma.srq.api.ActivationState;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether the adapter's activations are ready to receive: every one ACTIVE, or STANDBY (a cluster
 * singleton another node delivers for: this node is ready to take over). One that is STARTING
 * (device or address not there yet), RECOVERING (device lost) or FAILED is not — what
 * {@link SrqReadinessCheck} reports to MicroProfile Health.
 *
 * @param ready  whether every activation is ACTIVE or STANDBY (true when there is none)
 * @param states each activation's state by name (srqName, else the MDB class's simple name)
 */
public record ActivationReadiness(boolean ready, Map<String, ActivationState> states) {

    /**
     * @param activations the running activations
     * @return their readiness
     */
    public static ActivationReadiness of(List<ActivationView> activations) {
        Map<String, ActivationState> states = new LinkedHashMap<>();
        boolean ready = true;
        for (ActivationView a : activations) {
            ActivationState s = a.lifecycle().state();
            states.merge(a.statistics().srqName(), s, (x, y) -> ready(x) ? y : x);
            ready &= ready(s);
        }
        return new ActivationReadiness(ready, Map.copyOf(states));
    }

    private static boolean ready(ActivationState s) {
        return s == ActivationState.ACTIVE || s == ActivationState.STANDBY;
    }
}
