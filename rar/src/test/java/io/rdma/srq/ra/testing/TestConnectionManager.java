package io.rdma.srq.ra.testing;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.ConnectionEventListener;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionFactory;

import java.io.Serial;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A pooling ConnectionManager as a container behaves: match from the free set, else create; on
 * CONNECTION_CLOSED clean up and return to the free set; on CONNECTION_ERROR_OCCURRED destroy.
 * Records every event for assertions.
 */
public final class TestConnectionManager implements ConnectionManager, ConnectionEventListener {
    @Serial
    private static final long serialVersionUID = 1L;

    /** Pooled connections not in use. */
    public final Set<ManagedConnection> free = new HashSet<>();
    /** Every pooled connection created and not destroyed. */
    public final Set<ManagedConnection> all = new HashSet<>();
    /** Events seen, as "CLOSED" / "ERROR". */
    public final List<String> events = new ArrayList<>();

    @Override
    public synchronized Object allocateConnection(ManagedConnectionFactory mcf, ConnectionRequestInfo info)
            throws ResourceException {
        ManagedConnection mc = mcf.matchManagedConnections(new HashSet<>(free), null, info);
        if (mc != null) {
            free.remove(mc);
        } else {
            mc = mcf.createManagedConnection(null, info);
            mc.addConnectionEventListener(this);
            all.add(mc);
        }
        return mc.getConnection(null, info);
    }

    @Override
    public synchronized void connectionClosed(ConnectionEvent event) {
        events.add("CLOSED");
        ManagedConnection mc = (ManagedConnection) event.getSource();
        try {
            mc.cleanup();
            free.add(mc);
        } catch (ResourceException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public synchronized void connectionErrorOccurred(ConnectionEvent event) {
        events.add("ERROR");
        ManagedConnection mc = (ManagedConnection) event.getSource();
        free.remove(mc);
        all.remove(mc);
        try {
            mc.destroy();
        } catch (ResourceException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Destroys every pooled connection, as a pool flush does. */
    public synchronized void flush() throws ResourceException {
        for (ManagedConnection mc : all) {
            mc.destroy();
        }
        all.clear();
        free.clear();
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
}
