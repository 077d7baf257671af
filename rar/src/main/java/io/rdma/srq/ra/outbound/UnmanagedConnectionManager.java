package io.rdma.srq.ra.outbound;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.ConnectionEventListener;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionFactory;

import java.io.Serial;

/**
 * The connection manager of the non-managed environment (JCA 2.1 §6.5.2): no pool; a pooled
 * connection per handle, destroyed when the handle closes or fails.
 */
final class UnmanagedConnectionManager implements ConnectionManager {
    @Serial
    private static final long serialVersionUID = 1L;

    @Override
    public Object allocateConnection(ManagedConnectionFactory mcf, ConnectionRequestInfo info) throws ResourceException {
        ManagedConnection mc = mcf.createManagedConnection(null, info);
        mc.addConnectionEventListener(new ConnectionEventListener() {
            private void destroy(ConnectionEvent event) {
                try {
                    ((ManagedConnection) event.getSource()).destroy();
                } catch (ResourceException e) {
                    org.jboss.logging.Logger.getLogger(UnmanagedConnectionManager.class).warn("destroy failed", e);
                }
            }

            @Override
            public void connectionClosed(ConnectionEvent event) {
                destroy(event);
            }

            @Override
            public void connectionErrorOccurred(ConnectionEvent event) {
                destroy(event);
            }

            @Override
            public void localTransactionStarted(ConnectionEvent event) {
            }

            @Override
            public void localTransactionCommitted(ConnectionEvent event) {
            }

            @Override
            public void localTransactionRolledback(ConnectionEvent event) {
            }
        });
        return mc.getConnection(null, info);
    }
}
