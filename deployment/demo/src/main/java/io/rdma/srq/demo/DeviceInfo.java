package io.rdma.srq.demo;

import io.rdma.srq.api.DeviceAttributes;
import io.rdma.srq.api.PortAttributes;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.api.SrqHandle;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reports what a pooled connection of the default definition sees: the device (ibv_query_device),
 * its port (ibv_query_port) and a named SRQ of the connection (ibv_query_srq), plus the statistics of
 * the adapter's SRQ activations (the demo MDB's among them).
 */
@Stateless
public class DeviceInfo {
    /** The SRQ this bean opens on the pooled connection. */
    public static final String PROBE_SRQ = "demo-probe";

    @Inject
    SrqConnectionFactory factory;

    /** @return the report @throws Exception from the adapter (ResourceException, VerbsException) */
    public Map<String, Object> describe() throws Exception {
        Map<String, Object> m = new LinkedHashMap<>();
        try (SrqConnection c = factory.getConnection()) {
            DeviceAttributes d = c.deviceAttributes();
            PortAttributes p = c.portAttributes();
            m.put("provider", c.providerName());
            m.put("device", c.deviceName());
            m.put("port", c.portNumber());
            Map<String, Object> device = new LinkedHashMap<>();
            device.put("fwVersion", d.fwVersion());
            device.put("vendorId", d.vendorId());
            device.put("vendorPartId", d.vendorPartId());
            device.put("physPortCnt", d.physPortCnt());
            device.put("maxQp", d.maxQp());
            device.put("maxQpWr", d.maxQpWr());
            device.put("maxCq", d.maxCq());
            device.put("maxCqe", d.maxCqe());
            device.put("maxMr", d.maxMr());
            device.put("maxPd", d.maxPd());
            device.put("maxSrq", d.maxSrq());
            device.put("maxSrqWr", d.maxSrqWr());
            device.put("maxSrqSge", d.maxSrqSge());
            device.put("capabilities", d.capabilities().stream().map(Enum::name).sorted().toList());
            m.put("deviceAttributes", device);
            Map<String, Object> port = new LinkedHashMap<>();
            port.put("state", p.state() == PortAttributes.STATE_ACTIVE ? "ACTIVE" : String.valueOf(p.state()));
            port.put("activeMtu", p.activeMtu());
            port.put("maxMsgSz", p.maxMsgSz());
            port.put("linkLayer", p.linkLayer());
            m.put("portAttributes", port);
            SrqHandle srq = c.openSrq(PROBE_SRQ, new SrqAttributes(256, 1, 0));
            SrqAttributes live = srq.query();
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("name", srq.name());
            s.put("maxWr", live.maxWr());
            s.put("maxSge", live.maxSge());
            s.put("srqLimit", live.srqLimit());
            m.put("srq", s);
        }
        m.put("activations", AdapterStatistics.of(factory));
        return m;
    }
}
