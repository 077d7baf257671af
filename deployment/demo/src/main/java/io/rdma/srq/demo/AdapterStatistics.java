package io.rdma.srq.demo;

import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.api.SrqConnectionFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The adapter's per-activation counters ({@link SrqConnectionFactory#activationStatistics()}) as
 * JSON-ready maps for the demo's REST report.
 */
public final class AdapterStatistics {
    private AdapterStatistics() {
    }

    /**
     * @param factory a connection factory of the adapter whose activations are wanted (the default
     *                definition belongs to the adapter MDBs use: the layer's rdma-srq, or srq-rar.rar)
     * @return one map per activation (srqName, device, posted, completed, delivered, …)
     */
    public static List<Map<String, Object>> of(SrqConnectionFactory factory) {
        return factory.activationStatistics().stream().map(AdapterStatistics::map).toList();
    }

    /**
     * @param factory a connection factory
     * @param srqName an activation's SRQ name
     * @return its counters, or an empty map
     */
    public static Map<String, Object> of(SrqConnectionFactory factory, String srqName) {
        return factory.activationStatistics().stream().filter(s -> srqName.equals(s.srqName())).findFirst()
                .map(AdapterStatistics::map).orElse(Map.of());
    }

    private static Map<String, Object> map(ActivationStatistics s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("srqName", s.srqName());
        m.put("device", s.device());
        m.put("posted", s.posted());
        m.put("completed", s.completed());
        m.put("delivered", s.delivered());
        m.put("undelivered", s.undelivered());
        m.put("endpointFailures", s.endpointFailures());
        m.put("redelivered", s.redelivered());
        m.put("deadLettered", s.deadLettered());
        m.put("pauses", s.pauses());
        m.put("paused", s.paused());
        m.put("errorCompletions", s.errorCompletions());
        m.put("limitEvents", s.limitEvents());
        m.put("outstanding", s.outstanding());
        m.put("fill", s.fill());
        m.put("connections", s.connections());
        m.put("rejected", s.rejected());
        m.put("copiedOut", s.copiedOut());
        m.put("slowDisconnects", s.slowDisconnects());
        m.put("halfOpenReaped", s.halfOpenReaped());
        m.put("retained", s.retained());
        m.put("leavingConnections", s.leavingConnections());
        m.put("closedConnections", s.closedConnections());
        m.put("closedOnLastWqe", s.closedOnLastWqe());
        return m;
    }
}
