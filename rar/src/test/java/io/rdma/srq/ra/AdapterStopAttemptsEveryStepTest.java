package io.rdma.srq.ra;

import io.rdma.srq.ra.testing.TestBootstrapContext;
import jakarta.resource.spi.ManagedConnection;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The adapter's stop attempts every step whatever the ones before did: pooled connections whose
 * destroy throws an unchecked exception neither stop it nor keep the others from being destroyed,
 * and the adapter ends stopped (no work manager, no pooled connection held).
 */
class AdapterStopAttemptsEveryStepTest {

    @Test
    void aPooledConnectionWhoseDestroyThrowsStopsNoOtherStep() throws Exception {
        SrqResourceAdapter ra = new SrqResourceAdapter();
        TestBootstrapContext bootstrap = new TestBootstrapContext();
        ra.start(bootstrap);
        List<String> destroyed = new CopyOnWriteArrayList<>();
        for (String name : List.of("first", "second", "third")) {
            ra.opened(failingOnDestroy(name, destroyed));
        }

        assertDoesNotThrow(ra::stop);

        assertEquals(3, destroyed.size(), "every pooled connection's destroy was attempted: " + destroyed);
        assertEquals(0, ra.openConnections());
        assertNull(ra.workManager(), "the adapter is stopped");
        bootstrap.testWorkManager().shutdown();
    }

    /** A pooled connection whose destroy records its name, then throws IllegalStateException. */
    private static ManagedConnection failingOnDestroy(String name, List<String> destroyed) {
        return (ManagedConnection) Proxy.newProxyInstance(ManagedConnection.class.getClassLoader(),
                new Class<?>[] {ManagedConnection.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "destroy" -> {
                        destroyed.add(name);
                        throw new IllegalStateException(name + " failed to destroy");
                    }
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    case "toString" -> "pooled connection " + name;
                    default -> null;
                });
    }
}
