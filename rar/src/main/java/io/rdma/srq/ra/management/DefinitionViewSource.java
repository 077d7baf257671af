package io.rdma.srq.ra.management;

/**
 * What a connection factory bound in JNDI offers an {@link SrqDefinitionMonitor}: its connection
 * definition's figures now ({@link StatisticsTable#DEFINITION}).
 */
public interface DefinitionViewSource {

    /** @return the definition now: its device opened and queried, and what its pooled connections hold */
    DefinitionView definitionView();
}
