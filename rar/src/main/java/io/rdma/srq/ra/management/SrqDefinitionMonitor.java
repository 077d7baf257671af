package io.rdma.srq.ra.management;

import jakarta.resource.Referenceable;
import jakarta.resource.spi.AdministeredObject;
import jakarta.resource.spi.ConfigProperty;
import org.jboss.jca.core.spi.statistics.Statistics;
import org.jboss.jca.core.spi.statistics.StatisticsPlugin;

import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.naming.Reference;
import java.io.Serial;
import java.io.Serializable;
import java.util.Optional;

/**
 * An admin object that shows the figures of a connection definition ({@link StatisticsTable#DEFINITION})
 * that WildFly gives no {@code statistics=extended} resource of its own: the one the archive's
 * {@code META-INF/ironjacamar.xml} activates ({@code java:/eis/SrqConnectionFactory}). WildFly 39
 * registers that definition's statistics only as descriptions, never as a resource (docs/operating.md), so a monitor configured on an adapter of {@code /subsystem=resource-adapters}
 * stands in for it:
 * {@code /subsystem=resource-adapters/resource-adapter=R/admin-objects=M/statistics=extended}, and
 * the {@code /metrics} lines labelled {@code admin_objects="M"}.
 *
 * <p>It looks the definition's connection factory up by JNDI name on every read, so a definition that
 * is (re)deployed after the monitor is seen without any change; while nothing of this adapter is bound
 * there, the numbers read 0 and the text figures are empty. Configured as (jboss-cli):
 * <pre>
 * /subsystem=resource-adapters/resource-adapter=srq-embedded:add(archive=srq-rar.rar, statistics-enabled=true)
 * /subsystem=resource-adapters/resource-adapter=srq-embedded/admin-objects=embedded-definition:add(
 *     class-name=io.rdma.srq.ra.management.SrqDefinitionMonitor, jndi-name=java:/srq/definition/embedded)
 * /subsystem=resource-adapters/resource-adapter=srq-embedded/admin-objects=embedded-definition/config-properties=jndiName:add(
 *     value=java:/eis/SrqConnectionFactory)
 * </pre>
 */
@AdministeredObject(adminObjectInterfaces = DefinitionMonitor.class)
public class SrqDefinitionMonitor implements DefinitionMonitor, Statistics, Referenceable, Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    /** The archive's own definition (META-INF/ironjacamar.xml). */
    public static final String EMBEDDED_DEFINITION = "java:/eis/SrqConnectionFactory";

    @ConfigProperty(defaultValue = EMBEDDED_DEFINITION,
            description = "JNDI name of the connection factory whose definition to watch (default: the archive's own, java:/eis/SrqConnectionFactory)")
    private String jndiName = EMBEDDED_DEFINITION;

    private Reference reference;
    private final FigureStatistics<DefinitionView> statistics = new FigureStatistics<>(StatisticsTable.DEFINITION, this::definitionView);

    @Override
    public String getJndiName() {
        return jndiName;
    }

    /** @param jndiName the JNDI name of the connection factory to watch; blank: the archive's own */
    public void setJndiName(String jndiName) {
        this.jndiName = jndiName == null || jndiName.isBlank() ? EMBEDDED_DEFINITION : jndiName.trim();
    }

    /** @return the watched definition now, empty while nothing of this adapter is bound at the JNDI name */
    public Optional<DefinitionView> definitionView() {
        try {
            InitialContext context = new InitialContext();
            try {
                return context.lookup(jndiName) instanceof DefinitionViewSource source
                        ? Optional.of(source.definitionView()) : Optional.empty();
            } finally {
                context.close();
            }
        } catch (NamingException e) {
            return Optional.empty();
        }
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
        return "SrqDefinitionMonitor[jndiName=" + jndiName + "]";
    }
}
