package io.rdma.srq.ra.support;

import io.rdma.srq.api.DeviceAttributes;
import io.rdma.srq.api.SrqAttributes;
import jakarta.resource.spi.InvalidPropertyException;

/**
 * The SRQ sizes of a configuration, properties {@code srqMaxWr}, {@code srqMaxSge} and
 * {@code srqLimit}, as the connection definition and the activation both have them: parsed with
 * their static ranges, then checked against the opened device (ibv_query_device(3) max_srq,
 * max_srq_wr, max_srq_sge).
 */
public final class SrqSizing {
    private SrqSizing() {
    }

    /**
     * @param check  where errors are reported
     * @param maxWr  srqMaxWr text: receive WRs, 1..2^31 − 1 here, at most max_srq_wr on the device
     * @param maxSge srqMaxSge text: SGEs per receive WR, 1..2^31 − 1 here, at most max_srq_sge
     * @param limit  srqLimit text: the low watermark in WRs, 0..srqMaxWr − 1 (0: not armed; below
     *               srqMaxWr, since the receives posted must exceed it, and mlx5 refuses a limit ≥ max_wr)
     * @return the sizes (max_wr, max_sge, srq_limit)
     * @throws InvalidPropertyException naming the first bad property and its range
     */
    public static SrqAttributes parse(PropertyCheck check, String maxWr, String maxSge, String limit)
            throws InvalidPropertyException {
        int wr = SrqProperty.SRQ_MAX_WR.parse(check, maxWr);
        int sge = SrqProperty.SRQ_MAX_SGE.parse(check, maxSge);
        int srqLimit = SrqProperty.SRQ_LIMIT.parse(check, limit, SrqProperty.SRQ_LIMIT.min(), wr - 1L);
        return new SrqAttributes(wr, sge, srqLimit);
    }

    /**
     * @param check  where errors are reported
     * @param device the opened device's attributes
     * @param srq    the parsed sizes
     * @throws InvalidPropertyException when the device has no SRQ (max_srq or max_srq_wr 0), or
     *                                  srqMaxWr / srqMaxSge exceed max_srq_wr / max_srq_sge
     */
    public static void checkAgainst(PropertyCheck check, DeviceAttributes device, SrqAttributes srq)
            throws InvalidPropertyException {
        if (device.maxSrq() == 0 || device.maxSrqWr() == 0) {
            throw check.invalid("srqMaxWr", "the device has no SRQ support (max_srq " + device.maxSrq()
                    + ", max_srq_wr " + device.maxSrqWr() + "): choose another device");
        }
        check.inRange("srqMaxWr", srq.maxWr(), 1, device.maxSrqWr(), "the device's max_srq_wr");
        check.inRange("srqMaxSge", srq.maxSge(), 1, device.maxSrqSge(), "the device's max_srq_sge");
    }
}
