package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.DeviceAttributes;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.ra.support.DeviceSelection;
import io.rdma.srq.ra.support.FabricProperties;
import io.rdma.srq.verbs.ConnectionParameters;
import io.rdma.srq.ra.support.PropertyCheck;
import io.rdma.srq.ra.support.SrqProperty;
import io.rdma.srq.ra.support.SrqSizing;
import jakarta.resource.spi.InvalidPropertyException;

/**
 * The parsed, checked configuration of a connection definition. Static ranges are checked when it
 * is parsed; the device's own limits (max_srq_wr, max_srq_sge, phys_port_cnt) when the device is
 * opened ({@link #checkAgainst}). A device without SRQs (EFA) still opens: its connections report
 * the device and register memory, and openSrq / connect fail with EOPNOTSUPP.
 *
 * @param device            which device: provider, device name, soft profile
 * @param port              port number, 1..phys_port_cnt
 * @param srqDefaults       the spec of the SRQ {@code default} peers ride on when connect names none
 *                          (max_wr, max_sge, srq_limit)
 * @param sendBufferSize    the largest message a peer connection sends, bytes
 * @param receiveBufferSize bytes per receive buffer of every pooled SRQ (its slab: max_wr × this)
 * @param fabric            the fabric settings of every peer connection (trafficClass, ackTimeout,
 *                          retryCount, rnrRetryCount: {@link FabricProperties})
 */
public record SrqConfig(DeviceSelection device, int port, SrqAttributes srqDefaults, int sendBufferSize,
                        int receiveBufferSize, ConnectionParameters fabric) {

    /**
     * Parses the text properties.
     *
     * @param check          where errors are reported
     * @param provider       provider text
     * @param device         device text
     * @param softProfile    softProfile text
     * @param port           port text
     * @param srqMaxWr       srqMaxWr text
     * @param srqMaxSge      srqMaxSge text
     * @param srqLimit       srqLimit text
     * @param sendBufferSize sendBufferSize text
     * @param receiveBufferSize receiveBufferSize text
     * @param trafficClass   trafficClass text (empty: rdma_cm's)
     * @param ackTimeout     ackTimeout text
     * @param retryCount     retryCount text
     * @param rnrRetryCount  rnrRetryCount text
     * @return the config
     * @throws InvalidPropertyException naming the first bad property and its range
     */
    public static SrqConfig parse(PropertyCheck check, String provider, String device, String softProfile, String port,
                                  String srqMaxWr, String srqMaxSge, String srqLimit,
                                  String sendBufferSize, String receiveBufferSize, String trafficClass,
                                  String ackTimeout, String retryCount, String rnrRetryCount)
            throws InvalidPropertyException {
        DeviceSelection selection = DeviceSelection.parse(check, provider, device, softProfile);
        int portNum = SrqProperty.PORT.parse(check, port);
        SrqAttributes srq = SrqSizing.parse(check, srqMaxWr, srqMaxSge, srqLimit);
        int send = SrqProperty.SEND_BUFFER_SIZE.parse(check, sendBufferSize);
        int receive = SrqProperty.RECEIVE_BUFFER_SIZE.parse(check, receiveBufferSize);
        check.inRange("receiveBufferSize", (long) srq.maxWr() * receive, 1, 1L << 34,
                "srqMaxWr × receiveBufferSize, the default SRQ's registered slab, at most 16 GiB");
        return new SrqConfig(selection, portNum, srq, send, receive,
                FabricProperties.parse(check, trafficClass, ackTimeout, retryCount, rnrRetryCount));
    }

    /**
     * Checks the config against the opened device.
     *
     * @param check  where errors are reported
     * @param device the device attributes
     * @throws InvalidPropertyException naming the property and the device's limit
     */
    public void checkAgainst(PropertyCheck check, DeviceAttributes device)
            throws InvalidPropertyException {
        check.inRange("port", this.port, 1, device.physPortCnt(), "the device's phys_port_cnt");
        if (device.maxSrq() > 0 && device.maxSrqWr() > 0) {
            SrqSizing.checkAgainst(check, device, srqDefaults);
        }
    }
}
