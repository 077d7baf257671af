package io.rdma.srq.ra.support;

import io.rdma.srq.verbs.ConnectionParameters;
import jakarta.resource.spi.InvalidPropertyException;

import java.util.OptionalInt;

/**
 * The fabric-setting properties a connection definition and an activation both have, parsed into
 * the {@link ConnectionParameters} of every connection they make or accept (ranges and defaults:
 * {@link SrqProperty}):
 * <ul>
 *   <li>{@code trafficClass}: the TOS / traffic class byte of the QP's packets (RoCE v2: DSCP
 *       × 4 + ECN, e.g. 106 = DSCP 26); empty: as rdma_cm sets it (0, or configfs
 *       {@code default_roce_tos});</li>
 *   <li>{@code ackTimeout}: the ACK timeout exponent: 4.096 µs × 2^n; 0, which never times out, is
 *       refused;</li>
 *   <li>{@code retryCount}: transport retries after an ACK timeout: a peer that stopped answering
 *       is seen after ackTimeout ×
 *       (retryCount + 1), with the defaults 0.47 s (the IB spec lets a device take up to 4 × that).
 *       7 is seven retries by the IB spec, but rxe retries forever with it (its completer never
 *       counts 7 down, rxe_comp.c; driver note 24), so the default stays below it;</li>
 *   <li>{@code rnrRetryCount}: retries after an RNR NAK (the peer's SRQ was empty), 7 = retry
 *       forever (IB spec, rdma_connect(3); the default, so a full
 *       receiver slows its senders down and fails none: the activation's pause relies on it); n &lt; 7
 *       fails a send with IBV_WC_RNR_RETRY_EXC_ERR after about n × 0.64 ms of an empty SRQ.</li>
 * </ul>
 * Source: rdma_connect(3), rdma_accept(3), ibv_modify_qp(3), InfiniBand spec 1.4 vol. 1 9.7.6.1.3.
 */
public final class FabricProperties {
    /** ackTimeout when not set: {@link SrqProperty#ACK_TIMEOUT}'s default (what ibv_rc_pingpong and perftest use). */
    public static final int DEFAULT_ACK_TIMEOUT = defaultOf(SrqProperty.ACK_TIMEOUT);
    /** retryCount when not set: {@link SrqProperty#RETRY_COUNT}'s default, the most that ends on every device (driver note 24). */
    public static final int DEFAULT_RETRY_COUNT = defaultOf(SrqProperty.RETRY_COUNT);
    /** rnrRetryCount when not set: {@link SrqProperty#RNR_RETRY_COUNT}'s default, retry forever. */
    public static final int DEFAULT_RNR_RETRY_COUNT = defaultOf(SrqProperty.RNR_RETRY_COUNT);

    private FabricProperties() {
    }

    /**
     * @param check         where errors are reported
     * @param trafficClass  trafficClass text, empty for rdma_cm's
     * @param ackTimeout    ackTimeout text, empty for {@link #DEFAULT_ACK_TIMEOUT}
     * @param retryCount    retryCount text, empty for {@link #DEFAULT_RETRY_COUNT}
     * @param rnrRetryCount rnrRetryCount text, empty for {@link #DEFAULT_RNR_RETRY_COUNT}
     * @return the parameters
     * @throws InvalidPropertyException naming the property and its range
     */
    public static ConnectionParameters parse(PropertyCheck check, String trafficClass, String ackTimeout,
                                             String retryCount, String rnrRetryCount) throws InvalidPropertyException {
        OptionalInt tc = blank(trafficClass) ? OptionalInt.empty()
                : OptionalInt.of(SrqProperty.TRAFFIC_CLASS.parse(check, trafficClass));
        int timeout = blank(ackTimeout) ? DEFAULT_ACK_TIMEOUT : SrqProperty.ACK_TIMEOUT.parse(check, ackTimeout);
        int retry = blank(retryCount) ? DEFAULT_RETRY_COUNT : SrqProperty.RETRY_COUNT.parse(check, retryCount);
        int rnr = blank(rnrRetryCount) ? DEFAULT_RNR_RETRY_COUNT : SrqProperty.RNR_RETRY_COUNT.parse(check, rnrRetryCount);
        return new ConnectionParameters(tc, OptionalInt.of(timeout), retry, rnr);
    }

    /**
     * Logs the settings in force and how long a dead peer takes to be seen (SRQRA0052).
     *
     * @param who        the activation or connection definition
     * @param parameters its settings
     */
    public static void log(String who, ConnectionParameters parameters) {
        RaLogger.LOG.fabricSettings(who, parameters, parameters.deadPeerMillis().isPresent()
                ? parameters.deadPeerMillis().getAsInt() + " ms (ackTimeout × (retryCount + 1))"
                : "rdma_cm's ACK timeout × (retryCount + 1)");
    }

    /** The fabric settings have one default on both sides. */
    private static int defaultOf(SrqProperty property) {
        return Integer.parseInt(property.defaultFor(SrqProperty.Side.ACTIVATION));
    }

    private static boolean blank(String v) {
        return v == null || v.isBlank();
    }
}
