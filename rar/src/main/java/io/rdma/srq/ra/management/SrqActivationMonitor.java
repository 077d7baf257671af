package io.rdma.srq.ra.management;

import io.rdma.srq.api.ActivationStatistics;
import jakarta.resource.Referenceable;
import jakarta.resource.spi.AdministeredObject;
import jakarta.resource.spi.ConfigProperty;
import org.jboss.jca.core.spi.statistics.Statistics;
import org.jboss.jca.core.spi.statistics.StatisticsPlugin;

import javax.naming.Reference;
import java.io.Serial;
import java.io.Serializable;
import java.util.Optional;

/**
 * An admin object that shows one activation's figures ({@link StatisticsTable#ACTIVATION}) in the
 * management model: WildFly registers its statistics as
 * {@code /subsystem=resource-adapters/resource-adapter=R/admin-objects=A/statistics=extended}, whose
 * attributes are also {@code /metrics} lines labelled {@code admin_objects="A"}. It watches the
 * activation by srqName and reads it on every read, so an activation started after the adapter (or
 * redeployed) is seen without any change; while none runs, {@code active} is 0.
 *
 * <p>One monitor per adapter entry: WildFly 39 shows the statistics of the first admin object of an
 * adapter entry under every admin object of that entry ({@code AdminObjectStatisticsService}), so a
 * second watched srqName needs an adapter entry of its own (docs/operating.md).
 *
 * <p>Configured as (jboss-cli; the resource adapter's {@code statistics-enabled} sets whether it
 * collects):
 * <pre>
 * /subsystem=resource-adapters/resource-adapter=srq-orders/admin-objects=demo-activation:add(
 *     class-name=io.rdma.srq.ra.management.SrqActivationMonitor, jndi-name=java:/srq/activation/demo)
 * /subsystem=resource-adapters/resource-adapter=srq-orders/admin-objects=demo-activation/config-properties=srqName:add(value=demo)
 * </pre>
 */
@AdministeredObject(adminObjectInterfaces = ActivationMonitor.class)
public class SrqActivationMonitor implements ActivationMonitor, Statistics, Referenceable, Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    @ConfigProperty(defaultValue = "", description = "srqName of the activation to watch (an MDB's activation property srqName; empty there: the MDB class's simple name)")
    private String srqName = "";

    private Reference reference;
    private final FigureStatistics<ActivationView> statistics =
            new FigureStatistics<>(StatisticsTable.ACTIVATION, () -> ActivationDirectory.find(srqName));

    @Override
    public String getSrqName() {
        return srqName;
    }

    /** @param srqName the srqName of the activation to watch */
    public void setSrqName(String srqName) {
        this.srqName = srqName == null ? "" : srqName.trim();
    }

    @Override
    public Optional<ActivationStatistics> activationStatistics() {
        return ActivationDirectory.find(srqName).map(ActivationView::statistics);
    }

    @Override
    public StatisticsPlugin getStatistics() {
        return statistics;
    }

    @Override
    public void setReference(Reference reference) {
        this.reference = reference;
    }

    @Override
    public Reference getReference() {
        return reference;
    }

    @Override
    public String toString() {
        return "SrqActivationMonitor[srqName=" + srqName + "]";
    }
}
