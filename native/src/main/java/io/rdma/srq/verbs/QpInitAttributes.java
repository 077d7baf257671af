package io.rdma.srq.verbs;

import java.util.Objects;

/**
 * What ibv_create_qp(3) needs ({@code struct ibv_qp_init_attr}). With an SRQ, the QP takes its
 * receives from it and {@code maxRecvWr}/{@code maxRecvSge} are ignored (pass 0).
 *
 * @param type          the transport, RC for SRQ connections
 * @param sendCq        the CQ for send completions
 * @param recvCq        the CQ for receive completions
 * @param srq           the SRQ, or {@code null} for a QP with its own receive queue
 * @param maxSendWr     send queue depth in WRs, 1..max_qp_wr
 * @param maxRecvWr     receive queue depth in WRs (0 with an SRQ)
 * @param maxSendSge    SGEs per send WR, 1..max_sge
 * @param maxRecvSge    SGEs per receive WR (0 with an SRQ)
 * @param maxInlineData bytes that may be sent inline, 0 for none
 */
public record QpInitAttributes(QpType type, CompletionQueue sendCq, CompletionQueue recvCq,
                               SharedReceiveQueue srq, int maxSendWr, int maxRecvWr, int maxSendSge,
                               int maxRecvSge, int maxInlineData) {

    /** QP transport types ({@code enum ibv_qp_type}); the value is the C constant. */
    public enum QpType {
        RC(2), UC(3), UD(4);

        private final int code;

        QpType(int code) {
            this.code = code;
        }

        /** @return the C value of IBV_QPT_* */
        public int code() {
            return code;
        }
    }

    /** Checks for nulls and negative sizes. */
    public QpInitAttributes {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(sendCq, "sendCq");
        Objects.requireNonNull(recvCq, "recvCq");
        if (maxSendWr < 0 || maxRecvWr < 0 || maxSendSge < 0 || maxRecvSge < 0 || maxInlineData < 0) {
            throw new IllegalArgumentException("QP capacities must be ≥ 0: " + this);
        }
    }

    /**
     * An RC QP on an SRQ, the shape every SRQ connection has.
     *
     * @param cq        the CQ for both sends and receives
     * @param srq       the SRQ the receives come from
     * @param maxSendWr send queue depth, 1..max_qp_wr
     * @return the attributes (1 send SGE, no inline data)
     */
    public static QpInitAttributes rcOnSrq(CompletionQueue cq, SharedReceiveQueue srq, int maxSendWr) {
        return new QpInitAttributes(QpType.RC, cq, cq, Objects.requireNonNull(srq, "srq"), maxSendWr, 0, 1, 0, 0);
    }
}
