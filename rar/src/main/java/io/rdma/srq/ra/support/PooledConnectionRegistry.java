package io.rdma.srq.ra.support;

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

    /** @return the pooled connections holding native objects now (a copy) */
    List<ManagedConnection> pooledConnections();
}
