package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.DeviceAttributes;
import io.rdma.srq.api.PortAttributes;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.ra.PropertyCheck;
import jakarta.resource.spi.InvalidPropertyException;

import java.util.List;

/**
 * The parsed, checked configuration of a connection definition. Static ranges are checked when it
 * is parsed; the device's own limits (max_srq_wr, max_srq_sge, phys_port_cnt, gid_tbl_len) when
 * the device is opened ({@link #checkAgainst}).
 *
 * @param provider    auto | ibverbs | soft
 * @param device      device name, empty for the provider's first device
 * @param softProfile the soft device's profile when provider is soft (or auto falls back to it)
 * @param port        port number, 1..phys_port_cnt
 * @param gidIndex    GID index, 0..gid_tbl_len − 1
 * @param srqDefaults    the default SRQ spec (max_wr, max_sge, srq_limit)
 * @param sendBufferSize the largest message a peer connection sends, bytes
 */
public record SrqConfig(String provider, String device, String softProfile, int port, int gidIndex,
                        SrqAttributes srqDefaults, int sendBufferSize) {
    /** Values of the provider property. */
    public static final List<String> PROVIDERS = List.of("auto", "ibverbs", "soft");
    /** Values of the softProfile property. */
    public static final List<String> SOFT_PROFILES = List.of("rxe", "mlx5", "efa");

    /**
     * Parses the text properties.
     *
     * @param check       where errors are reported
     * @param provider    provider text
     * @param device      device text
     * @param softProfile softProfile text
     * @param port        port text
     * @param gidIndex    gidIndex text
     * @param srqMaxWr    srqMaxWr text
     * @param srqMaxSge   srqMaxSge text
     * @param srqLimit    srqLimit text
     * @param sendBufferSize sendBufferSize text
     * @return the config
     * @throws InvalidPropertyException naming the first bad property and its range
     */
    public static SrqConfig parse(PropertyCheck check, String provider, String device, String softProfile, String port,
                                  String gidIndex, String srqMaxWr, String srqMaxSge, String srqLimit,
                                  String sendBufferSize) throws InvalidPropertyException {
        String p = check.oneOf("provider", provider, PROVIDERS);
        String profile = check.oneOf("softProfile", softProfile, SOFT_PROFILES);
        int portNum = check.integer("port", port, 1, 255, "ports are numbered 1..phys_port_cnt");
        int gid = check.integer("gidIndex", gidIndex, 0, 255, "an index into the port's GID table");
        int maxWr = check.integer("srqMaxWr", srqMaxWr, 1, Integer.MAX_VALUE, "at most the device's max_srq_wr");
        int maxSge = check.integer("srqMaxSge", srqMaxSge, 1, Integer.MAX_VALUE, "at most the device's max_srq_sge");
        int limit = check.integer("srqLimit", srqLimit, 0, maxWr, "0 disarms; at most srqMaxWr");
        int send = check.integer("sendBufferSize", sendBufferSize, 1, 1 << 30, "bytes per message sent to a peer");
        return new SrqConfig(p, device == null ? "" : device.trim(), profile, portNum, gid,
                new SrqAttributes(maxWr, maxSge, limit), send);
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
        check.srqSizes(device, srqDefaults.maxWr(), srqDefaults.maxSge());
    }
}
