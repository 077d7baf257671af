package io.rdma.srq.verbs;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;

import java.util.OptionalInt;

/**
 * The fabric settings of an RC connection made through rdma_cm ({@link Context#connect},
 * {@link CmRequest#accept}): what the local QP uses, and what the connect request and reply carry to
 * the peer ({@code rdma_conn_param.retry_count} / {@code rnr_retry_count}, rdma_connect(3),
 * rdma_accept(3)).
 *
 * <p>Both providers set the values on the local QP as it is moved to RTR and RTS: the traffic class
 * into {@code ah_attr.grh.traffic_class} (RTR, with IBV_QP_AV), the ACK timeout into
 * {@code timeout}, the counts into {@code retry_cnt} and {@code rnr_retry} (RTS) — overriding what
 * rdma_init_qp_attr(3) computed from the path and the peer's answer. The generated librdmacm
 * bindings have no rdma_set_option(3) ({@code RDMA_OPTION_ID_TOS}, {@code RDMA_OPTION_ID_ACK_TIMEOUT}),
 * so the rdma_cm id's own TOS (used for the CM's packets and the route lookup) stays the kernel's
 * default (configfs {@code default_roce_tos}); the QP's data packets carry the traffic class set
 * here. {@link QueuePair#queryConnectionParameters()} reads them back (ibv_query_qp(3)).
 *
 * @param trafficClass  the IPv4 TOS / IPv6 traffic class byte of the QP's packets (RoCE v2: DSCP
 *                      in the upper 6 bits, ECN in the lower 2; the lossless PFC priority is
 *                      usually mapped from the DSCP), 0..255; empty: as rdma_cm sets it
 * @param ackTimeout    the local ACK timeout exponent: an unacknowledged packet is retried after
 *                      4.096 µs × 2^ackTimeout (IB spec 1.4 vol. 1, 9.7.6.1.3), 0..31 (0: never
 *                      times out); empty: as rdma_cm sets it from the path's packet life time
 * @param retryCount    transport retries after an ACK timeout before the send completes with
 *                      IBV_WC_RETRY_EXC_ERR, 0..7 (7 is 7 retries, not infinite); a dead peer is
 *                      seen after about 4.096 µs × 2^ackTimeout × (retryCount + 1)
 * @param rnrRetryCount retries after an RNR NAK (the peer's receive queue, or SRQ, was empty)
 *                      before IBV_WC_RNR_RETRY_EXC_ERR, 0..7; 7 retries forever (IB spec, rdma_connect(3))
 */
public record ConnectionParameters(OptionalInt trafficClass, OptionalInt ackTimeout, int retryCount,
                                   int rnrRetryCount) {

    /** rnr_retry_count 7: retry forever (IB spec, rdma_connect(3)). */
    public static final int RNR_RETRY_INFINITE = 7;

    /** What connects and accepts used before these settings existed: rdma_cm's TOS and timeout, retry 7, RNR retry 7. */
    public static final ConnectionParameters RDMA_CM_DEFAULTS =
            new ConnectionParameters(OptionalInt.empty(), OptionalInt.empty(), 7, RNR_RETRY_INFINITE);

    /**
     * Checks every field against its range.
     *
     * @throws IllegalArgumentException for a value outside its range (see {@link #check} for the
     *                                  errno form the verbs calls use)
     */
    public ConnectionParameters {
        String bad = problem(trafficClass, ackTimeout, retryCount, rnrRetryCount);
        if (bad != null) {
            throw new IllegalArgumentException(bad);
        }
    }

    /**
     * Checks values the way a verbs call refuses them, before a record is built.
     *
     * @param trafficClass  0..255, or empty
     * @param ackTimeout    0..31, or empty
     * @param retryCount    0..7
     * @param rnrRetryCount 0..7
     * @return the parameters
     * @throws VerbsException EINVAL naming the field and its range (as ibv_modify_qp(3) refuses a
     *                        timeout above 31 or a count above 7)
     */
    public static ConnectionParameters check(OptionalInt trafficClass, OptionalInt ackTimeout, int retryCount,
                                             int rnrRetryCount) throws VerbsException {
        String bad = problem(trafficClass, ackTimeout, retryCount, rnrRetryCount);
        if (bad != null) {
            throw new VerbsException("ibv_modify_qp", Errno.EINVAL, bad);
        }
        return new ConnectionParameters(trafficClass, ackTimeout, retryCount, rnrRetryCount);
    }

    private static String problem(OptionalInt trafficClass, OptionalInt ackTimeout, int retryCount, int rnrRetryCount) {
        if (trafficClass == null || ackTimeout == null) {
            return "trafficClass and ackTimeout must not be null (empty: as rdma_cm sets them)";
        }
        if (trafficClass.isPresent() && (trafficClass.getAsInt() < 0 || trafficClass.getAsInt() > 255)) {
            return "traffic_class must be in 0..255, got " + trafficClass.getAsInt();
        }
        if (ackTimeout.isPresent() && (ackTimeout.getAsInt() < 0 || ackTimeout.getAsInt() > 31)) {
            return "timeout (the ACK timeout exponent) must be in 0..31, got " + ackTimeout.getAsInt();
        }
        if (retryCount < 0 || retryCount > 7) {
            return "retry_cnt must be in 0..7, got " + retryCount;
        }
        if (rnrRetryCount < 0 || rnrRetryCount > 7) {
            return "rnr_retry must be in 0..7 (7: retry forever), got " + rnrRetryCount;
        }
        return null;
    }

    /**
     * {@return the ACK timeout in nanoseconds: 4096 ns × 2^exponent (0 for exponent 0, which never times out)}
     *
     * @param exponent the ACK timeout exponent, 0..31
     */
    public static long ackTimeoutNanos(int exponent) {
        return exponent == 0 ? 0 : 4096L << exponent;
    }

    /**
     * {@return how long a peer that stopped answering takes to be seen, nominally: ACK timeout ×
     *          (retry_cnt + 1), in milliseconds; empty when the ACK timeout is rdma_cm's or 0 (never).
     *          The IB spec lets a device wait between 1 and 4 times the ACK timeout per try}
     */
    public OptionalInt deadPeerMillis() {
        if (ackTimeout.isEmpty() || ackTimeout.getAsInt() == 0) {
            return OptionalInt.empty();
        }
        long ns = ackTimeoutNanos(ackTimeout.getAsInt()) * (retryCount + 1L);
        return OptionalInt.of((int) Math.min(Integer.MAX_VALUE, ns / 1_000_000));
    }

    /** @return e.g. {@code traffic_class 106, timeout 14 (67.1 ms), retry_cnt 7, rnr_retry 7 (infinite)} */
    @Override
    public String toString() {
        return "traffic_class " + (trafficClass.isPresent() ? trafficClass.getAsInt() : "rdma_cm's")
                + ", timeout " + (ackTimeout.isPresent() ? ackTimeout.getAsInt() + " ("
                + String.format(java.util.Locale.ROOT, "%.1f ms", ackTimeoutNanos(ackTimeout.getAsInt()) / 1e6) + ")"
                : "rdma_cm's") + ", retry_cnt " + retryCount + ", rnr_retry " + rnrRetryCount
                + (rnrRetryCount == RNR_RETRY_INFINITE ? " (infinite)" : "");
    }
}
