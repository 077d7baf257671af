package io.rdma.srq.it;

import io.rdma.srq.it.app.InjectBean;
import io.rdma.srq.it.app.Probe;
import jakarta.ejb.EJB;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An EJB gets connection factories with {@code @Inject}: the default one, and
 * {@code @Inject @SrqFactory("java:/eis/SrqOrders")} the second definition configure.cli adds
 * through /subsystem=resource-adapters (provider soft, softProfile mlx5: device soft_mlx5_0, so
 * the two are told apart by their device).
 */
@ExtendWith(ArquillianExtension.class)
public class InjectIT {

    @Deployment
    public static WebArchive app() {
        return Apps.war("inject.war", true).addClasses(InjectBean.class, Probe.class);
    }

    @EJB
    private InjectBean bean;

    @Test
    public void injectedDefaultFactoryOpensTheSoftDeviceAndANamedSrq() throws Exception {
        Probe p = bean.probeDefault();
        assertTrue(p.deviceName().startsWith("soft"), "soft device expected: " + p);
        assertTrue(p.srqMaxWr() >= Probe.REQUESTED_MAX_WR, "SRQ max_wr ≥ requested: " + p);
    }

    @Test
    public void qualifierSelectsTheSecondDefinition() throws Exception {
        Probe orders = bean.probeOrders();
        assertEquals("soft_mlx5_0", orders.deviceName(), "srq-orders is configured with softProfile mlx5: " + orders);
        assertEquals("soft", orders.providerName(), orders.toString());
        assertTrue(orders.srqMaxWr() >= Probe.REQUESTED_MAX_WR, "SRQ max_wr ≥ requested: " + orders);

        Probe dflt = bean.probeDefault();
        assertTrue(!dflt.deviceName().equals(orders.deviceName()),
                "the default definition is another device: " + dflt + " / " + orders);
    }
}
