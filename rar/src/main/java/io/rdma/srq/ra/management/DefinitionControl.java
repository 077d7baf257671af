package io.rdma.srq.ra.management;

/**
 * A connection definition the container bound (its connection factory), as the {@code rdma-srq}
 * subsystem shows it: {@code /subsystem=rdma-srq/connection-definition=<pool name>}.
 */
public interface DefinitionControl extends DefinitionViewSource {

    /** @return the pool's name (WildFly's {@code connection-definitions=<name>}), null where the container gives none */
    String poolName();

    /** @return the JNDI name the container bound the factory at, null where it gives none */
    String jndiName();

    /**
     * Destroys every pooled connection of the definition, in use or not, as WildFly's
     * {@code flush-all-connection-in-pool} does (IronJacamar's {@code FlushMode.ALL}); a handle in use
     * fails its next call and the pool opens new connections on demand.
     *
     * @return false where the container gives no pool (nothing was flushed)
     */
    boolean flushPool();
}
