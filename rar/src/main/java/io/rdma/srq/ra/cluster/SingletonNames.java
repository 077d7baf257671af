package io.rdma.srq.ra.cluster;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The singleton names that have a candidate on this node: at most one each (the clash check). */
final class SingletonNames {
    private final Map<String, Boolean> taken = new ConcurrentHashMap<>();

    /**
     * @param name a singleton's name
     * @throws IllegalArgumentException naming clusterSingleton when this node has a candidate of that name
     */
    void take(String name) {
        if (taken.putIfAbsent(name, Boolean.TRUE) != null) {
            throw new IllegalArgumentException("clusterSingleton: an activation on this node is a candidate for the "
                    + "singleton '" + name + "' already (one per node); give this one another serviceName or srqName");
        }
    }

    /** @param name a name {@link #take taken} before */
    void release(String name) {
        taken.remove(name);
    }
}
