package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.ActivationStatistics;
import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.ra.management.DefinitionControl;
import io.rdma.srq.ra.management.DefinitionView;
import io.rdma.srq.ra.support.ActivationStatisticsSource;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionManager;

import javax.naming.Reference;
import java.io.Serial;
import java.util.List;

/** The factory bound in JNDI: allocates handles through the container's connection manager (its pool). */
public final class SrqConnectionFactoryImpl implements SrqConnectionFactory, DefinitionControl {
    @Serial
    private static final long serialVersionUID = 1L;

    private final SrqManagedConnectionFactory mcf;
    private final ConnectionManager cm;
    private final transient ContainerPool pool;
    private Reference reference;

    SrqConnectionFactoryImpl(SrqManagedConnectionFactory mcf, ConnectionManager cm) {
        this.mcf = mcf;
        this.cm = cm;
        this.pool = new ContainerPool(cm);
    }

    @Override
    public SrqConnection getConnection() throws ResourceException {
        return (SrqConnection) cm.allocateConnection(mcf, null);
    }

    @Override
    public List<ActivationStatistics> activationStatistics() {
        return mcf.getResourceAdapter() instanceof ActivationStatisticsSource source
                ? source.activationStatistics() : List.of();
    }

    @Override
    public DefinitionView definitionView() {
        return mcf.definitionView();
    }

    @Override
    public String poolName() {
        return pool.poolName();
    }

    @Override
    public String jndiName() {
        return pool.jndiName();
    }

    @Override
    public boolean flushPool() {
        return pool.flushAll();
    }

    @Override
    public void setReference(Reference reference) {
        this.reference = reference;
    }

    @Override
    public Reference getReference() {
        return reference;
    }
}
