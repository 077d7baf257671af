package io.rdma.srq.ra.support;

import io.rdma.srq.api.SrqLimitReached;
import jakarta.resource.spi.ManagedConnection;

import java.util.List;

/**
 * Where pooled connections report that they hold native objects, so whoever keeps the registry (the
 * resource adapter) can destroy what is still open when it stops.
 */
public interface PooledConnectionRegistry {

    /** @param mc a pooled connection that opened its device */
    void opened(ManagedConnection mc);

    /** @param mc a pooled connection that was destroyed */
    void closed(ManagedConnection mc);

    /**
     * A pooled SRQ raised IBV_EVENT_SRQ_LIMIT_REACHED and was refilled: fire the same
     * {@link SrqLimitReached} CDI event activations fire. Nothing by default.
     *
     * @param event       the event, naming the SRQ and device
     * @param classLoader the class loader of the application that opened the pooled connection
     */
    default void limitReached(SrqLimitReached event, ClassLoader classLoader) {
    }

    /** @return the pooled connections holding native objects now (a copy) */
    List<ManagedConnection> pooledConnections();
}
