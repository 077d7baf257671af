package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.DeviceAttributes;
import io.rdma.srq.api.PortAttributes;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.ra.support.DeviceSelection;
import io.rdma.srq.ra.support.PropertyCheck;
import io.rdma.srq.ra.support.SrqSizing;
import jakarta.resource.spi.InvalidPropertyException;

/**
 * The parsed, checked configuration of a connection definition. Static ranges are checked when it
 * is parsed; the device's own limits (max_srq_wr, max_srq_sge, phys_port_cnt, gid_tbl_len) when
 * the device is opened ({@link #checkAgainst}).
 *
 * @param device         which device: provider, device name, soft profile
 * @param port           port number, 1..phys_port_cnt
 * @param gidIndex       GID index, 0..gid_tbl_len − 1
 * @param srqDefaults    the default SRQ spec (max_wr, max_sge, srq_limit)
 * @param sendBufferSize the largest message a peer connection sends, bytes
 */
public record SrqConfig(DeviceSelection device, int port, int gidIndex, SrqAttributes srqDefaults, int sendBufferSize) {

    /**
     * Parses the text properties.
     *
     * @param check          where errors are reported
     * @param provider       provider text
     * @param device         device text
     * @param softProfile    softProfile text
     * @param port           port text
     * @param gidIndex       gidIndex text
     * @param srqMaxWr       srqMaxWr text
     * @param srqMaxSge      srqMaxSge text
     * @param srqLimit       srqLimit text
     * @param sendBufferSize sendBufferSize text
     * @return the config
     * @throws InvalidPropertyException naming the first bad property and its range
     */
    public static SrqConfig parse(PropertyCheck check, String provider, String device, String softProfile, String port,
                                  String gidIndex, String srqMaxWr, String srqMaxSge, String srqLimit,
                                  String sendBufferSize) throws InvalidPropertyException {
        DeviceSelection selection = DeviceSelection.parse(check, provider, device, softProfile);
        int portNum = check.integer("port", port, 1, 255, "ports are numbered 1..phys_port_cnt");
        int gid = check.integer("gidIndex", gidIndex, 0, 255, "an index into the port's GID table");
        SrqAttributes srq = SrqSizing.parse(check, srqMaxWr, srqMaxSge, srqLimit);
        int send = check.integer("sendBufferSize", sendBufferSize, 1, 1 << 30, "bytes per message sent to a peer");
        return new SrqConfig(selection, portNum, gid, srq, send);
    }

    /**
     * Checks the config against the opened device.
     *
     * @param check  where errors are reported
     * @param device the device attributes
     * @param port   the port attributes of {@link #port()} (null if the port does not exist)
     * @throws InvalidPropertyException naming the property and the device's limit
     */
    public void checkAgainst(PropertyCheck check, DeviceAttributes device, PortAttributes port)
            throws InvalidPropertyException {
        check.inRange("port", this.port, 1, device.physPortCnt(), "the device's phys_port_cnt");
        if (port != null && port.gidTblLen() > 0) {
            check.inRange("gidIndex", gidIndex, 0, port.gidTblLen() - 1L, "the port's gid_tbl_len − 1");
        }
        SrqSizing.checkAgainst(check, device, srqDefaults);
    }
}
