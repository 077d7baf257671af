package io.rdma.srq.verbs.soft;

import io.rdma.srq.api.WcStatus;

import java.util.Objects;

/**
 * The behaviours in which real drivers differ and that no capability bit of ibv_query_device(3)
 * announces, one named property each; a {@link SoftProfile} has one set, built by name with
 * {@link #builder()}. What the device attributes do tell (IBV_DEVICE_SRQ_RESIZE, IBV_DEVICE_XRC,
 * max_srq) is read from them instead ({@link SoftProfile#canResizeSrq()} and the like).
 *
 * @param hasRc                 whether RC QPs exist (EFA has UD and SRD only; rdma-core
 *                              providers/efa/verbs.c)
 * @param createLimitHonoured   whether ibv_create_srq(3) applies a create-time srq_limit (driver
 *                              note 4: rxe honours it, mlx4/mlx5 ignore it)
 * @param limitMustBeBelowMaxWr whether ibv_modify_srq(3) refuses srq_limit = max_wr with EINVAL
 *                              (driver note 1: mlx5; rxe accepts srq_limit ≤ max_wr, driver note 2)
 * @param srqSgeSizing          how the actual max_sge of a new SRQ follows from the request
 * @param recvLengthError       the receive status of a SEND longer than the receive SGEs
 * @param sendLengthError       the sender's status for that SEND
 * @param recvProtectionError   the receive status when a receive SGE is not inside a writable MR of
 *                              the receiving QP's PD
 * @param sendKeyError          the send status when the send SGE's lkey names no valid MR of the
 *                              sending QP's PD (deregistered, or of another PD); the peer sees nothing
 * @param rcSrcQpReported       whether an RC receive completion carries the sender's QP number in
 *                              src_qp (ibv_poll_cq(3) calls src_qp valid for UD only)
 * @param lastWqeReachedEvent   whether an SRQ-attached QP entering ERROR raises
 *                              IBV_EVENT_QP_LAST_WQE_REACHED (driver note 8)
 * @param destroyCleansCq       whether ibv_destroy_qp(3) removes the destroyed QP's unpolled
 *                              completions from its CQs, so they are never polled (driver note 18:
 *                              rdma-core providers/mlx5/verbs.c {@code mlx5_destroy_qp} calls
 *                              {@code __mlx5_cq_clean} on the receive and the send CQ, which also
 *                              frees their SRQ WQEs; rxe leaves them in the CQ)
 */
public record DriverQuirks(boolean hasRc, boolean createLimitHonoured, boolean limitMustBeBelowMaxWr,
                           SrqSgeSizing srqSgeSizing, WcStatus recvLengthError, WcStatus sendLengthError,
                           WcStatus recvProtectionError, WcStatus sendKeyError, boolean rcSrcQpReported,
                           boolean lastWqeReachedEvent, boolean destroyCleansCq) {

    /** Refuses a missing sizing rule or status. */
    public DriverQuirks {
        Objects.requireNonNull(srqSgeSizing, "srqSgeSizing");
        Objects.requireNonNull(recvLengthError, "recvLengthError");
        Objects.requireNonNull(sendLengthError, "sendLengthError");
        Objects.requireNonNull(recvProtectionError, "recvProtectionError");
        Objects.requireNonNull(sendKeyError, "sendKeyError");
    }

    /** How a driver turns the max_sge asked of ibv_create_srq(3) into the SRQ's actual max_sge. */
    public enum SrqSgeSizing {
        /** The request, raised to 1 (rxe_srq.c {@code rxe_srq_chk_init}: RXE_MIN_SRQ_SGE). */
        AS_REQUESTED {
            @Override
            int actual(int maxSge) {
                return Math.max(1, maxSge);
            }
        },
        /**
         * What the WQE holds: a 16-byte next segment and 16 bytes per SGE, rounded up to a power of
         * two of at least 32 bytes (rdma-core providers/mlx5/srq.c {@code mlx5_alloc_srq_buf}); 2 → 3, 4 → 7.
         */
        MLX5_WQE {
            @Override
            int actual(int maxSge) {
                int size = Integer.highestOneBit(Math.max(32, 16 + 16 * maxSge) - 1) << 1;
                return (size - 16) / 16;
            }
        };

        /**
         * {@return the actual max_sge}
         *
         * @param maxSge the requested max_sge, 0..max_srq_sge
         */
        abstract int actual(int maxSge);
    }

    /** {@return a builder with every flag false and no sizing rule or status set (all must be)} */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link DriverQuirks} by property name; every setter returns the builder. */
    public static final class Builder {
        private boolean hasRc;
        private boolean createLimitHonoured;
        private boolean limitMustBeBelowMaxWr;
        private SrqSgeSizing srqSgeSizing;
        private WcStatus recvLengthError;
        private WcStatus sendLengthError;
        private WcStatus recvProtectionError;
        private WcStatus sendKeyError;
        private boolean rcSrcQpReported;
        private boolean lastWqeReachedEvent;
        private boolean destroyCleansCq;

        private Builder() {
        }

        /**
         * {@return this builder}
         *
         * @param v see {@link DriverQuirks#hasRc()}
         */
        public Builder hasRc(boolean v) {
            hasRc = v;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param v see {@link DriverQuirks#createLimitHonoured()}
         */
        public Builder createLimitHonoured(boolean v) {
            createLimitHonoured = v;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param v see {@link DriverQuirks#limitMustBeBelowMaxWr()}
         */
        public Builder limitMustBeBelowMaxWr(boolean v) {
            limitMustBeBelowMaxWr = v;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param v see {@link DriverQuirks#srqSgeSizing()}
         */
        public Builder srqSgeSizing(SrqSgeSizing v) {
            srqSgeSizing = v;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param v see {@link DriverQuirks#recvLengthError()}
         */
        public Builder recvLengthError(WcStatus v) {
            recvLengthError = v;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param v see {@link DriverQuirks#sendLengthError()}
         */
        public Builder sendLengthError(WcStatus v) {
            sendLengthError = v;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param v see {@link DriverQuirks#recvProtectionError()}
         */
        public Builder recvProtectionError(WcStatus v) {
            recvProtectionError = v;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param v see {@link DriverQuirks#sendKeyError()}
         */
        public Builder sendKeyError(WcStatus v) {
            sendKeyError = v;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param v see {@link DriverQuirks#rcSrcQpReported()}
         */
        public Builder rcSrcQpReported(boolean v) {
            rcSrcQpReported = v;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param v see {@link DriverQuirks#lastWqeReachedEvent()}
         */
        public Builder lastWqeReachedEvent(boolean v) {
            lastWqeReachedEvent = v;
            return this;
        }

        /**
         * {@return this builder}
         *
         * @param v see {@link DriverQuirks#destroyCleansCq()}
         */
        public Builder destroyCleansCq(boolean v) {
            destroyCleansCq = v;
            return this;
        }

        /**
         * {@return the quirks}
         *
         * @throws NullPointerException if the sizing rule or a status was not set
         */
        public DriverQuirks build() {
            return new DriverQuirks(hasRc, createLimitHonoured, limitMustBeBelowMaxWr, srqSgeSizing, recvLengthError,
                    sendLengthError, recvProtectionError, sendKeyError, rcSrcQpReported, lastWqeReachedEvent,
                    destroyCleansCq);
        }
    }
}
