package io.rdma.srq.it.app;

import io.rdma.srq.api.DeviceAttributes;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.api.SrqHandle;

import java.io.Serializable;

/**
 * What a test application saw through one pooled connection: the device (ibv_query_device) and a
 * named SRQ it opened.
 *
 * @param deviceName   the connection's device, e.g. soft_rxe0
 * @param providerName ibverbs or soft
 * @param maxSrqWr     the device's max_srq_wr
 * @param srqName      the name the SRQ was opened with
 * @param srqMaxWr     the SRQ's actual max_wr (≥ requested)
 */
public record Probe(String deviceName, String providerName, int maxSrqWr, String srqName, int srqMaxWr)
        implements Serializable {

    /** The SRQ every test opens: {@code openSrq("orders", new SrqAttributes(1024, 1, 0))}. */
    public static final String SRQ = "orders";
    /** Its requested max_wr. */
    public static final int REQUESTED_MAX_WR = 1024;

    /**
     * Gets a connection, reads the device attributes, opens the {@value #SRQ} SRQ and returns the
     * connection to the pool.
     *
     * @param factory a connection factory
     * @return what it saw
     * @throws Exception from the connection (ResourceException) or the verbs (VerbsException)
     */
    public static Probe of(SrqConnectionFactory factory) throws Exception {
        try (SrqConnection c = factory.getConnection()) {
            DeviceAttributes device = c.deviceAttributes();
            SrqHandle srq = c.openSrq(SRQ, new SrqAttributes(REQUESTED_MAX_WR, 1, 0));
            return new Probe(c.deviceName(), c.providerName(), device.maxSrqWr(), srq.name(), srq.maxWr());
        }
    }

    /** @return one line, as the probe servlet prints it */
    public String toText() {
        return "device=" + deviceName + " provider=" + providerName + " max_srq_wr=" + maxSrqWr + " srq=" + srqName
                + " max_wr=" + srqMaxWr;
    }
}
