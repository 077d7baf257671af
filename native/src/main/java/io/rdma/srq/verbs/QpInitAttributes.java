package io.rdma.srq.verbs;

import java.util.Objects;

/**
 * What ibv_create_qp(3) needs ({@code struct ibv_qp_init_attr}), built by name:
 * <pre>{@code
 * QpInitAttributes.builder(QpType.RC).cq(cq).srq(srq).maxSendWr(64).build()           // an SRQ connection
 * QpInitAttributes.builder(QpType.RC).cq(cq).maxSendWr(16).maxRecvWr(16).build()      // own receive queue
 * }</pre>
 * With an SRQ the QP takes its receives from it and {@code max_recv_wr}/{@code max_recv_sge} are
 * ignored (they stay 0). The capacities are checked against the device by ibv_create_qp (EINVAL
 * above max_qp_wr / max_sge); here only nulls and negative values are refused.
 */
public final class QpInitAttributes {

    /** QP transport types ({@code enum ibv_qp_type}); the value is the C constant. */
    public enum QpType {
        /** IBV_QPT_RC: reliable connected, the only type that takes its receives from an SRQ here. */
        RC(2),
        /** IBV_QPT_UC: unreliable connected. */
        UC(3),
        /** IBV_QPT_UD: unreliable datagram. */
        UD(4);

        private final int code;

        QpType(int code) {
            this.code = code;
        }

        /** {@return the C value of IBV_QPT_*} */
        public int code() {
            return code;
        }
    }

    private final QpType type;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final SharedReceiveQueue srq;
    private final int maxSendWr;
    private final int maxRecvWr;
    private final int maxSendSge;
    private final int maxRecvSge;
    private final int maxInlineData;

    private QpInitAttributes(Builder b) {
        this.type = b.type;
        this.sendCq = Objects.requireNonNull(b.sendCq, "sendCq (or cq)");
        this.recvCq = Objects.requireNonNull(b.recvCq, "recvCq (or cq)");
        this.srq = b.srq;
        this.maxSendWr = b.maxSendWr;
        this.maxRecvWr = b.maxRecvWr;
        this.maxSendSge = b.maxSendSge;
        this.maxRecvSge = b.maxRecvSge;
        this.maxInlineData = b.maxInlineData;
    }

    /**
     * {@return a builder with max_send_wr 1, max_send_sge 1, max_recv_wr and max_recv_sge 0 (right
     *         for a QP on an SRQ; set both for a QP with its own receive queue), no inline data}
     *
     * @param type the transport (RC for SRQ connections)
     */
    public static Builder builder(QpType type) {
        return new Builder(Objects.requireNonNull(type, "type"));
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
        return builder(QpType.RC).cq(cq).srq(Objects.requireNonNull(srq, "srq")).maxSendWr(maxSendWr).build();
    }

    /** {@return the transport ({@code qp_type})} */
    public QpType type() {
        return type;
    }

    /** {@return the CQ for send completions ({@code send_cq})} */
    public CompletionQueue sendCq() {
        return sendCq;
    }

    /** {@return the CQ for receive completions ({@code recv_cq})} */
    public CompletionQueue recvCq() {
        return recvCq;
    }

    /** {@return the SRQ ({@code srq}), or {@code null} for a QP with its own receive queue} */
    public SharedReceiveQueue srq() {
        return srq;
    }

    /** {@return send queue depth in WRs ({@code cap.max_send_wr})} */
    public int maxSendWr() {
        return maxSendWr;
    }

    /** {@return receive queue depth in WRs ({@code cap.max_recv_wr}; 0 with an SRQ)} */
    public int maxRecvWr() {
        return maxRecvWr;
    }

    /** {@return SGEs per send WR ({@code cap.max_send_sge})} */
    public int maxSendSge() {
        return maxSendSge;
    }

    /** {@return SGEs per receive WR ({@code cap.max_recv_sge}; 0 with an SRQ)} */
    public int maxRecvSge() {
        return maxRecvSge;
    }

    /** {@return bytes that may be sent inline ({@code cap.max_inline_data}), 0 for none} */
    public int maxInlineData() {
        return maxInlineData;
    }

    @Override
    public String toString() {
        return "QpInitAttributes[type=" + type + ", srq=" + (srq != null) + ", max_send_wr=" + maxSendWr
                + ", max_recv_wr=" + maxRecvWr + ", max_send_sge=" + maxSendSge + ", max_recv_sge=" + maxRecvSge
                + ", max_inline_data=" + maxInlineData + "]";
    }

    /** Builds {@link QpInitAttributes} by field name; every setter returns the builder. */
    public static final class Builder {
        private final QpType type;
        private CompletionQueue sendCq;
        private CompletionQueue recvCq;
        private SharedReceiveQueue srq;
        private int maxSendWr = 1;
        private int maxRecvWr;
        private int maxSendSge = 1;
        private int maxRecvSge;
        private int maxInlineData;

        private Builder(QpType type) {
            this.type = type;
        }

        /**
         * Sets {@code cq}.
         *
         * @param cq the CQ for both send and receive completions
         * @return this builder
         */
        public Builder cq(CompletionQueue cq) {
            return sendCq(cq).recvCq(cq);
        }

        /**
         * Sets {@code sendCq}.
         *
         * @param cq the CQ for send completions
         * @return this builder
         */
        public Builder sendCq(CompletionQueue cq) {
            this.sendCq = Objects.requireNonNull(cq, "sendCq");
            return this;
        }

        /**
         * Sets {@code recvCq}.
         *
         * @param cq the CQ for receive completions
         * @return this builder
         */
        public Builder recvCq(CompletionQueue cq) {
            this.recvCq = Objects.requireNonNull(cq, "recvCq");
            return this;
        }

        /**
         * Sets {@code srq}.
         *
         * @param srq the SRQ the QP's receives come from, {@code null} for its own receive queue
         * @return this builder
         */
        public Builder srq(SharedReceiveQueue srq) {
            this.srq = srq;
            return this;
        }

        /**
         * Sets {@code maxSendWr}.
         *
         * @param n send queue depth in WRs, 1..max_qp_wr
         * @return this builder
         */
        public Builder maxSendWr(int n) {
            this.maxSendWr = nonNegative("maxSendWr", n);
            return this;
        }

        /**
         * Sets {@code maxRecvWr}.
         *
         * @param n receive queue depth in WRs, 1..max_qp_wr without an SRQ (ignored with one)
         * @return this builder
         */
        public Builder maxRecvWr(int n) {
            this.maxRecvWr = nonNegative("maxRecvWr", n);
            return this;
        }

        /**
         * Sets {@code maxSendSge}.
         *
         * @param n SGEs per send WR, 1..max_sge
         * @return this builder
         */
        public Builder maxSendSge(int n) {
            this.maxSendSge = nonNegative("maxSendSge", n);
            return this;
        }

        /**
         * Sets {@code maxRecvSge}.
         *
         * @param n SGEs per receive WR, 1..max_sge without an SRQ (ignored with one)
         * @return this builder
         */
        public Builder maxRecvSge(int n) {
            this.maxRecvSge = nonNegative("maxRecvSge", n);
            return this;
        }

        /**
         * Sets {@code maxInlineData}.
         *
         * @param n bytes that may be sent inline, 0 for none
         * @return this builder
         */
        public Builder maxInlineData(int n) {
            this.maxInlineData = nonNegative("maxInlineData", n);
            return this;
        }

        /**
         * {@return the attributes}
         *
         * @throws NullPointerException if no send or receive CQ was set
         */
        public QpInitAttributes build() {
            return new QpInitAttributes(this);
        }

        private static int nonNegative(String name, int n) {
            if (n < 0) {
                throw new IllegalArgumentException(name + " must be ≥ 0, got " + n);
            }
            return n;
        }
    }
}
