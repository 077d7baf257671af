package io.rdma.srq.ra.management;

import io.rdma.srq.ra.SrqResourceAdapter;
import io.rdma.srq.ra.outbound.SrqManagedConnectionFactory;
import io.rdma.srq.ra.testing.SoftAdapterTest;
import io.rdma.srq.ra.testing.TestBootstrapContext;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.ManagedConnectionFactory;
import org.jboss.jca.core.api.connectionmanager.pool.FlushMode;
import org.jboss.jca.core.api.connectionmanager.pool.Pool;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The connection definitions the rdma-srq subsystem lists: a factory registers when the container creates
 * it and is let go when its adapter stops; on IronJacamar's connection manager it names its pool and JNDI
 * name and flushes the pool with {@code FlushMode.ALL}; elsewhere it names neither and flushes nothing.
 */
class DefinitionDirectoryTest extends SoftAdapterTest {

    @Test
    void aFactoryIsListedFromItsCreationUntilItsAdapterStops() throws Exception {
        SrqResourceAdapter other = new SrqResourceAdapter();
        TestBootstrapContext ctx = new TestBootstrapContext();
        other.start(ctx);
        try {
            SrqManagedConnectionFactory m = new SrqManagedConnectionFactory();
            m.setProvider("soft");
            m.setResourceAdapter(other);
            DefinitionControl d = (DefinitionControl) m.createConnectionFactory(new PooledManager("java:/eis/Other", "Other", null));
            assertTrue(DefinitionDirectory.all().contains(d), "listed once created");
            assertTrue(DefinitionDirectory.all().contains((DefinitionControl) factory), "the other adapter's factory too");
            other.stop();
            assertFalse(DefinitionDirectory.all().contains(d), "let go when its adapter stopped");
            assertTrue(DefinitionDirectory.all().contains((DefinitionControl) factory), "the running adapter's factory stays");
        } finally {
            ctx.testWorkManager().shutdown();
        }
    }

    @Test
    void onIronJacamarsManagerItNamesAndFlushesItsPool() throws Exception {
        List<FlushMode> flushes = new CopyOnWriteArrayList<>();
        DefinitionControl d = (DefinitionControl) mcf.createConnectionFactory(new PooledManager("java:/eis/Orders", "SrqOrders", flushes));
        assertEquals("SrqOrders", d.poolName());
        assertEquals("java:/eis/Orders", d.jndiName());
        assertTrue(d.flushPool());
        assertEquals(List.of(FlushMode.ALL), flushes, "every connection, in use or not");
    }

    @Test
    void elsewhereItNamesNothingAndFlushesNothing() {
        DefinitionControl d = (DefinitionControl) factory; // the test's plain ConnectionManager
        assertNull(d.poolName());
        assertNull(d.jndiName());
        assertFalse(d.flushPool());
    }

    /** Stands in for IronJacamar's manager: public getJndiName() and getPool() on its class. */
    public static final class PooledManager implements ConnectionManager {
        private final String jndiName;
        private final Pool pool;

        PooledManager(String jndiName, String poolName, List<FlushMode> flushes) {
            this.jndiName = jndiName;
            this.pool = (Pool) Proxy.newProxyInstance(Pool.class.getClassLoader(), new Class<?>[] {Pool.class}, (p, method, args) -> {
                if (method.getName().equals("getName")) {
                    return poolName;
                }
                if (method.getName().equals("flush") && args != null && args[0] instanceof FlushMode mode) {
                    flushes.add(mode);
                }
                return null;
            });
        }

        public String getJndiName() {
            return jndiName;
        }

        public Pool getPool() {
            return pool;
        }

        @Override
        public Object allocateConnection(ManagedConnectionFactory mcf, ConnectionRequestInfo cxRequestInfo) {
            throw new UnsupportedOperationException("not used here");
        }
    }
}
