package io.rdma.srq.ra.outbound;

import jakarta.resource.spi.ConnectionManager;
import org.jboss.jca.core.api.connectionmanager.pool.FlushMode;
import org.jboss.jca.core.api.connectionmanager.pool.Pool;

import java.lang.reflect.Method;

/**
 * What IronJacamar's connection manager (WildFly's) says of the pool behind a connection factory: its
 * JNDI name and its pool. Read by reflection — {@code getJndiName()} and {@code getPool()} are public
 * methods of IronJacamar's implementation class, outside its API module; the pool itself is the API's
 * {@link Pool}. Another container's manager gives neither (null, false).
 */
final class ContainerPool {
    private final ConnectionManager cm;

    /** @param cm the connection manager the container gave the factory */
    ContainerPool(ConnectionManager cm) {
        this.cm = cm;
    }

    /** @return the JNDI name the factory is bound at, or null */
    String jndiName() {
        return call("getJndiName") instanceof String s ? s : null;
    }

    /** @return the pool's name (the connection definition's, in WildFly), or null */
    String poolName() {
        return call("getPool") instanceof Pool p ? p.getName() : null;
    }

    /** @return whether there was a pool to flush (every connection of it destroyed) */
    boolean flushAll() {
        if (call("getPool") instanceof Pool p) {
            p.flush(FlushMode.ALL);
            return true;
        }
        return false;
    }

    private Object call(String method) {
        try {
            Method m = cm.getClass().getMethod(method);
            return m.invoke(cm);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }
}
