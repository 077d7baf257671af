package io.rdma.srq.ra.management;

/**
 * The interface of the {@link SrqDefinitionMonitor} admin object (what its JNDI name gives): the
 * connection definition it watches.
 */
public interface DefinitionMonitor {

    /** @return the JNDI name of the watched definition's connection factory, e.g. {@code java:/eis/SrqConnectionFactory} */
    String getJndiName();
}
