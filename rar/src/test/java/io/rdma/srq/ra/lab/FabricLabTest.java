package io.rdma.srq.ra.lab;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.support.DeviceSelection;
import io.rdma.srq.ra.support.FabricProperties;
import io.rdma.srq.ra.support.PropertyCheck;
import io.rdma.srq.ra.testing.RcPair;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import io.rdma.srq.verbs.ConnectionParameters;
import io.rdma.srq.verbs.Context;
import jakarta.resource.ResourceException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The device choice, the listener registry and the fabric properties on rxe0: the device by name,
 * by its netdev's address (rdma_bind_addr) and by GID; two activations on one port; and the
 * properties' values on both QPs of an adapter connection (ibv_query_qp: traffic class, timeout,
 * retry_cnt, rnr_retry). Needs the rxe lab; skipped elsewhere with the reason.
 */
class FabricLabTest extends LabAdapterTest {

    private String chosen(String value) throws Exception {
        try (Context c = DeviceSelection.parse(new PropertyCheck(Object.class), "ibverbs", value, "rxe").open("lab")) {
            return c.deviceName();
        }
    }

    @Test
    @DisplayName("device by name, by the netdev's address (rdma_bind_addr), by GID, and empty (the only device); an address no interface has is EADDRNOTAVAIL")
    void theDeviceIsChosenStably() throws Exception {
        assertEquals(device, chosen(device));
        assertEquals(device, chosen(address));
        byte[] v4 = InetAddress.getByName(address).getAddress();
        assertEquals(device, chosen("gid:::ffff:" + InetAddress.getByAddress(v4).getHostAddress()));
        assertEquals(device, chosen(""));
        VerbsException none = assertThrows(VerbsException.class, () -> chosen("192.0.2.77"));
        assertTrue(none.is(Errno.EADDRNOTAVAIL), none.getMessage());
        VerbsException noGid = assertThrows(VerbsException.class, () -> chosen("gid:fe80::1234"));
        assertTrue(noGid.is(Errno.ENODEV), noGid.getMessage());
    }

    private SrqActivationSpec spec(String name, String port) throws Exception {
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setResourceAdapter(ra);
        spec.setProvider("ibverbs");
        spec.setDevice(address);
        spec.setSrqName(name);
        spec.setListenAddress(address);
        spec.setListenPort(port);
        spec.setSrqMaxWr("64");
        spec.setSrqLimit("0");
        return spec;
    }

    @Test
    @DisplayName("two activations on one address and port of rxe0: the second fails EADDRINUSE naming the first")
    void aSecondActivationOnThePortFailsNamingTheFirst() throws Exception {
        ra.endpointActivation(new TestEndpointFactory(), spec("orders", "0"));
        String port = String.valueOf(ra.activations().getFirst().listenAddress().getPort());
        ResourceException e = assertThrows(ResourceException.class,
                () -> ra.endpointActivation(new TestEndpointFactory(), spec("quotes", port)));
        assertTrue(e.getMessage().contains("EADDRINUSE") && e.getMessage().contains("activation orders"), e.getMessage());
        assertEquals(1, ra.activations().size());
    }

    @Test
    @DisplayName("trafficClass, ackTimeout, retryCount, rnrRetryCount reach both QPs of an adapter connection on rxe0 (ibv_query_qp)")
    void fabricPropertiesReachTheQps() throws Exception {
        PropertyCheck check = new PropertyCheck(Object.class);
        ConnectionParameters connecting = FabricProperties.parse(check, "106", "12", "5", "3");
        ConnectionParameters accepting = FabricProperties.parse(check, "32", "16", "6", "4");
        try (Context ctx = DeviceSelection.parse(check, "ibverbs", device, "rxe").open("lab");
             RcPair pair = RcPair.open(ctx, InetAddress.getByName(address), connecting, accepting)) {
            ConnectionParameters c = pair.connected().qp().queryConnectionParameters();
            ConnectionParameters a = pair.accepted().qp().queryConnectionParameters();
            System.out.println("rxe0 connecting QP: " + c + "; accepting QP: " + a);
            assertEquals(connecting, c);
            assertEquals(accepting, a);
        }
    }
}
