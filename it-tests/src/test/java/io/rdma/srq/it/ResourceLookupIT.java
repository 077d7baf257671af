package io.rdma.srq.it;

import io.rdma.srq.it.app.Probe;
import io.rdma.srq.it.app.ResourceLookupBean;
import jakarta.ejb.EJB;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An EJB gets the default connection factory with {@code @Resource(lookup = "java:/eis/SrqConnectionFactory")}:
 * the definition the adapter's ironjacamar.xml activates (provider auto, which is the soft device
 * on a machine without RDMA hardware).
 */
@ExtendWith(ArquillianExtension.class)
public class ResourceLookupIT {

    @Deployment
    public static WebArchive app() {
        return Apps.war("resource-lookup.war", false).addClasses(ResourceLookupBean.class, Probe.class);
    }

    @EJB
    private ResourceLookupBean bean;

    @Test
    public void defaultDefinitionOpensTheSoftDeviceAndANamedSrq() throws Exception {
        Probe p = bean.probe();
        assertTrue(p.deviceName().startsWith("soft"), "soft device expected: " + p);
        assertEquals("soft", p.providerName(), p.toString());
        assertTrue(p.maxSrqWr() >= Probe.REQUESTED_MAX_WR, "device max_srq_wr: " + p);
        assertEquals(Probe.SRQ, p.srqName());
        assertTrue(p.srqMaxWr() >= Probe.REQUESTED_MAX_WR, "SRQ max_wr ≥ requested: " + p);
    }

    @Test
    public void openingTheNamedSrqAgainGivesTheSameSrq() throws Exception {
        Probe first = bean.probe();
        Probe again = bean.probe();
        assertEquals(first.srqMaxWr(), again.srqMaxWr(), "same SRQ, same size: " + first + " / " + again);
    }
}
