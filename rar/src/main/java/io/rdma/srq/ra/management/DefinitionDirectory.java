package io.rdma.srq.ra.management;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The connection definitions the container bound for the adapters of this archive (or module), so that
 * the {@code rdma-srq} subsystem lists them: each registers when its factory is created and is let go when
 * its adapter stops.
 */
public final class DefinitionDirectory {
    // definition -> the adapter it belongs to
    private static final Map<DefinitionControl, Object> DEFINITIONS = new ConcurrentHashMap<>();

    private DefinitionDirectory() {
    }

    /**
     * @param definition a factory the container created
     * @param adapter    its resource adapter (what {@link #stopped} names), not null
     */
    public static void bound(DefinitionControl definition, Object adapter) {
        DEFINITIONS.put(definition, adapter);
    }

    /** @param adapter an adapter that stopped: its definitions are let go */
    public static void stopped(Object adapter) {
        DEFINITIONS.values().removeIf(a -> a == adapter);
    }

    /** @return every registered definition, now */
    public static List<DefinitionControl> all() {
        return new ArrayList<>(DEFINITIONS.keySet());
    }
}
