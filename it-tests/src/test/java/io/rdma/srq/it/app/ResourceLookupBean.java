package io.rdma.srq.it.app;

import io.rdma.srq.api.SrqConnectionFactory;
import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;

/** Gets the default connection factory the Jakarta EE way: {@code @Resource(lookup = ...)}. */
@Stateless
public class ResourceLookupBean {

    @Resource(lookup = "java:/eis/SrqConnectionFactory")
    private SrqConnectionFactory factory;

    /** @return what a connection of the default definition sees @throws Exception from the adapter */
    public Probe probe() throws Exception {
        return Probe.of(factory);
    }
}
