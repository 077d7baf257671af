package io.rdma.srq.it.app;

import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.api.SrqFactory;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

/** Gets connection factories through CDI: the adapter's producer (its jar has a beans.xml). */
@Stateless
public class InjectBean {

    /** The JNDI name of the second connection definition (deployment/src/main/cli/srq.properties). */
    public static final String ORDERS = "java:/eis/SrqOrders";

    @Inject
    private SrqConnectionFactory defaultFactory;

    @Inject
    @SrqFactory(ORDERS)
    private SrqConnectionFactory ordersFactory;

    /** @return what a connection of the default definition sees @throws Exception from the adapter */
    public Probe probeDefault() throws Exception {
        return Probe.of(defaultFactory);
    }

    /** @return what a connection of the srq-orders definition sees @throws Exception from the adapter */
    public Probe probeOrders() throws Exception {
        return Probe.of(ordersFactory);
    }
}
