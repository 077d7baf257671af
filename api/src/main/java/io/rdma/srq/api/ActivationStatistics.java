package io.rdma.srq.api;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A snapshot of one message-endpoint activation's counters ({@link SrqConnectionFactory#activationStatistics()}).
 *
 * <p>Made by the adapter only ({@link #builder()}); a later version may add accessors (new counters),
 * never remove or change one, so applications keep compiling and running. Equality is by value,
 * over every accessor.
 */
public final class ActivationStatistics {
    private final String srqName;
    private final String device;
    private final long posted;
    private final long completed;
    private final long delivered;
    private final long undelivered;
    private final long endpointFailures;
    private final long redelivered;
    private final long deadLettered;
    private final long pauses;
    private final boolean paused;
    private final long errorCompletions;
    private final long limitEvents;
    private final long outstanding;
    private final int fill;
    private final int connections;
    private final Map<String, Long> rejectedByReason;
    private final long copiedOut;
    private final long slowDisconnects;
    private final long halfOpenReaped;
    private final long rebalances;
    private final int serviceProviders;
    private final int retained;
    private final int leavingConnections;
    private final long closedConnections;
    private final long closedOnLastWqe;

    private ActivationStatistics(Builder b) {
        this.srqName = Objects.requireNonNull(b.srqName, "srqName");
        this.device = Objects.requireNonNull(b.device, "device");
        this.posted = b.posted;
        this.completed = b.completed;
        this.delivered = b.delivered;
        this.undelivered = b.undelivered;
        this.endpointFailures = b.endpointFailures;
        this.redelivered = b.redelivered;
        this.deadLettered = b.deadLettered;
        this.pauses = b.pauses;
        this.paused = b.paused;
        this.errorCompletions = b.errorCompletions;
        this.limitEvents = b.limitEvents;
        this.outstanding = b.outstanding;
        this.fill = b.fill;
        this.connections = b.connections;
        this.rejectedByReason = Collections.unmodifiableMap(new LinkedHashMap<>(b.rejectedByReason));
        this.copiedOut = b.copiedOut;
        this.slowDisconnects = b.slowDisconnects;
        this.halfOpenReaped = b.halfOpenReaped;
        this.rebalances = b.rebalances;
        this.serviceProviders = b.serviceProviders;
        this.retained = b.retained;
        this.leavingConnections = b.leavingConnections;
        this.closedConnections = b.closedConnections;
        this.closedOnLastWqe = b.closedOnLastWqe;
    }

    /** {@return a builder: srqName and device must be set, counters are 0 and the map empty unless set} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return the SRQ's name} */
    public String srqName() {
        return srqName;
    }

    /** {@return the device} */
    public String device() {
        return device;
    }

    /** {@return receive WRs posted to the SRQ since activation} */
    public long posted() {
        return posted;
    }

    /** {@return receive work completions polled (success and error)} */
    public long completed() {
        return completed;
    }

    /** {@return messages delivered to an endpoint (onReceive returned or threw)} */
    public long delivered() {
        return delivered;
    }

    /** {@return messages received (acknowledged to their sender) but never delivered: left in the CQ or in a batch when deactivation's drain timeout passed, or calls the endpoint refused before they ran (a stopping MDB), answered "not run" to their callers} */
    public long undelivered() {
        return undelivered;
    }

    /** {@return failed delivery attempts: onReceive (or before/afterDelivery) threw, or the container transaction of the delivery rolled back} */
    public long endpointFailures() {
        return endpointFailures;
    }

    /** {@return delivery attempts after a failed one (activation property maxDeliveryAttempts)} */
    public long redelivered() {
        return redelivered;
    }

    /** {@return messages whose every attempt failed: {@link SrqDeadLetter} was fired for each} */
    public long deadLettered() {
        return deadLettered;
    }

    /** {@return pauses after maxSequentialDeliveryFailures dead-lettered messages in a row} */
    public long pauses() {
        return pauses;
    }

    /** {@return whether delivery is paused now (completions wait in the CQ)} */
    public boolean paused() {
        return paused;
    }

    /** {@return completions with a status other than SUCCESS, or a wr_id or byte_len the SRQ cannot have produced (never delivered)} */
    public long errorCompletions() {
        return errorCompletions;
    }

    /** {@return IBV_EVENT_SRQ_LIMIT_REACHED taken} */
    public long limitEvents() {
        return limitEvents;
    }

    /** {@return receive WRs posted and not yet consumed, now} */
    public long outstanding() {
        return outstanding;
    }

    /** {@return the current fill level target} */
    public int fill() {
        return fill;
    }

    /** {@return connections on the SRQ now} */
    public int connections() {
        return connections;
    }

    /**
     * {@return connect requests rejected since activation, by reason name (NOT_ALLOWED, RATE_LIMITED,
     *          MAX_CONNECTIONS, MAX_CONNECTIONS_PER_PEER, NO_TOKEN, BAD_TOKEN, EXPIRED, REPLAYED,
     *          REPLAY_CACHE_FULL, ACCEPT_FAILED), every reason present, zeros included; unmodifiable}
     */
    public Map<String, Long> rejectedByReason() {
        return rejectedByReason;
    }

    /**
     * {@return messages copied out of the SRQ into the heap because their connection already held
     *          maxHeldPerConnection receive buffers: waiting under ordering=connection (delivered from
     *          the copy, in order), or retained ({@link ReceiveCompletion#retain()} gave a heap copy);
     *          their buffers went back to the SRQ at once}
     */
    public long copiedOut() {
        return copiedOut;
    }

    /**
     * {@return connections disconnected because they held maxHeldPerConnection buffers with as many
     *          messages again waiting in copies (ordering=connection; WARN SRQRA0330); what they had
     *          sent was still delivered}
     */
    public long slowDisconnects() {
        return slowDisconnects;
    }

    /**
     * {@return accepted connections closed before they were established: UNREACHABLE, REJECTED,
     *          CONNECT_ERROR or IBV_EVENT_QP_FATAL after the accept, or no ESTABLISHED within 10 s
     *          (WARN SRQRA0210); each freed its QP, send CQ and maxConnections slot}
     */
    public long halfOpenReaped() {
        return halfOpenReaped;
    }

    /**
     * {@return connections of {@code connectTo=service:NAME} moved to another provider because a
     * provider joined or left (docs/cluster.md), since activation}
     */
    public long rebalances() {
        return rebalances;
    }

    /**
     * {@return providers of the service this activation publishes, cluster-wide, as its directory
     * lists them now (itself included); 0 when it publishes nothing}
     */
    public int serviceProviders() {
        return serviceProviders;
    }

    /**
     * {@return receive buffers kept past their listener call by {@link RetainedMessage}s now (out of
     *          the SRQ until released)}
     */
    public int retained() {
        return retained;
    }

    /**
     * {@return connections leaving now: their peer disconnected (or they were evicted, or never
     *          established), their QP is in ERROR and waits until every completion it put in the CQ
     *          has been polled before it is destroyed}
     */
    public int leavingConnections() {
        return leavingConnections;
    }

    /**
     * {@return connections whose QP was destroyed after every completion it put in the CQ had been
     *          polled (delivered or counted), since activation}
     */
    public long closedConnections() {
        return closedConnections;
    }

    /**
     * {@return of {@link #closedConnections()}, those whose last completion the device announced with
     *          IBV_EVENT_QP_LAST_WQE_REACHED (mlx5; rxe from kernel 6.12); the others waited a quiet
     *          period after their QP entered ERROR}
     */
    public long closedOnLastWqe() {
        return closedOnLastWqe;
    }

    /** {@return connect requests rejected since activation, all reasons} */
    public long rejected() {
        return rejectedByReason.values().stream().mapToLong(Long::longValue).sum();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ActivationStatistics s
                && posted == s.posted
                && completed == s.completed
                && delivered == s.delivered
                && undelivered == s.undelivered
                && endpointFailures == s.endpointFailures
                && redelivered == s.redelivered
                && deadLettered == s.deadLettered
                && pauses == s.pauses
                && paused == s.paused
                && errorCompletions == s.errorCompletions
                && limitEvents == s.limitEvents
                && outstanding == s.outstanding
                && fill == s.fill
                && connections == s.connections
                && srqName.equals(s.srqName)
                && device.equals(s.device)
                && rejectedByReason.equals(s.rejectedByReason)
                && copiedOut == s.copiedOut
                && slowDisconnects == s.slowDisconnects
                && halfOpenReaped == s.halfOpenReaped
                && rebalances == s.rebalances
                && serviceProviders == s.serviceProviders
                && retained == s.retained
                && leavingConnections == s.leavingConnections
                && closedConnections == s.closedConnections
                && closedOnLastWqe == s.closedOnLastWqe;
    }

    @Override
    public int hashCode() {
        return Objects.hash(srqName, device, posted, completed, delivered, undelivered, endpointFailures, redelivered,
                deadLettered, pauses, paused, errorCompletions, limitEvents, outstanding, fill, connections,
                rejectedByReason, copiedOut, slowDisconnects, halfOpenReaped, retained, leavingConnections,
                closedConnections, closedOnLastWqe, rebalances, serviceProviders);
    }

    @Override
    public String toString() {
        return "ActivationStatistics[srqName=" + srqName
                + ", device=" + device
                + ", posted=" + posted
                + ", completed=" + completed
                + ", delivered=" + delivered
                + ", undelivered=" + undelivered
                + ", endpointFailures=" + endpointFailures
                + ", redelivered=" + redelivered
                + ", deadLettered=" + deadLettered
                + ", pauses=" + pauses
                + ", paused=" + paused
                + ", errorCompletions=" + errorCompletions
                + ", limitEvents=" + limitEvents
                + ", outstanding=" + outstanding
                + ", fill=" + fill
                + ", connections=" + connections
                + ", rejectedByReason=" + rejectedByReason.entrySet().stream().filter(e -> e.getValue() != 0)
                        .map(Map.Entry::toString).collect(Collectors.joining(", ", "{", "}"))
                + ", copiedOut=" + copiedOut + ", slowDisconnects=" + slowDisconnects
                + ", halfOpenReaped=" + halfOpenReaped
                + ", retained=" + retained + ", leavingConnections=" + leavingConnections
                + ", closedConnections=" + closedConnections + ", closedOnLastWqe=" + closedOnLastWqe
                + ", rebalances=" + rebalances + ", serviceProviders=" + serviceProviders + "]";
    }

    /** Builds an {@link ActivationStatistics} (the adapter's). Not thread-safe. */
    public static final class Builder {
        private String srqName;
        private String device;
        private long posted;
        private long completed;
        private long delivered;
        private long undelivered;
        private long endpointFailures;
        private long redelivered;
        private long deadLettered;
        private long pauses;
        private boolean paused;
        private long errorCompletions;
        private long limitEvents;
        private long outstanding;
        private int fill;
        private int connections;
        private Map<String, Long> rejectedByReason = Map.of();
        private long copiedOut;
        private long slowDisconnects;
        private long halfOpenReaped;
        private long rebalances;
        private int serviceProviders;
        private int retained;
        private int leavingConnections;
        private long closedConnections;
        private long closedOnLastWqe;

        private Builder() {
        }

        /**
         * Sets {@code srqName}.
         *
         * @param v the SRQ's name
         * @return this
         */
        public Builder srqName(String v) {
            srqName = v;
            return this;
        }

        /**
         * Sets {@code device}.
         *
         * @param v the device
         * @return this
         */
        public Builder device(String v) {
            device = v;
            return this;
        }

        /**
         * Sets {@code posted}.
         *
         * @param v receive WRs posted to the SRQ since activation
         * @return this
         */
        public Builder posted(long v) {
            posted = v;
            return this;
        }

        /**
         * Sets {@code completed}.
         *
         * @param v receive work completions polled (success and error)
         * @return this
         */
        public Builder completed(long v) {
            completed = v;
            return this;
        }

        /**
         * Sets {@code delivered}.
         *
         * @param v messages delivered to an endpoint (onReceive returned or threw)
         * @return this
         */
        public Builder delivered(long v) {
            delivered = v;
            return this;
        }

        /**
         * Sets {@code undelivered}.
         *
         * @param v messages received (acknowledged to their sender) but never delivered: left in the CQ or in a batch when deactivation's drain timeout passed
         * @return this
         */
        public Builder undelivered(long v) {
            undelivered = v;
            return this;
        }

        /**
         * Sets {@code endpointFailures}.
         *
         * @param v failed delivery attempts: onReceive (or before/afterDelivery) threw, or the container transaction of the delivery rolled back
         * @return this
         */
        public Builder endpointFailures(long v) {
            endpointFailures = v;
            return this;
        }

        /**
         * Sets {@code redelivered}.
         *
         * @param v delivery attempts after a failed one (activation property maxDeliveryAttempts)
         * @return this
         */
        public Builder redelivered(long v) {
            redelivered = v;
            return this;
        }

        /**
         * Sets {@code deadLettered}.
         *
         * @param v messages whose every attempt failed: {@link SrqDeadLetter} was fired for each
         * @return this
         */
        public Builder deadLettered(long v) {
            deadLettered = v;
            return this;
        }

        /**
         * Sets {@code pauses}.
         *
         * @param v pauses after maxSequentialDeliveryFailures dead-lettered messages in a row
         * @return this
         */
        public Builder pauses(long v) {
            pauses = v;
            return this;
        }

        /**
         * Sets {@code paused}.
         *
         * @param v whether delivery is paused now (completions wait in the CQ)
         * @return this
         */
        public Builder paused(boolean v) {
            paused = v;
            return this;
        }

        /**
         * Sets {@code errorCompletions}.
         *
         * @param v completions with a status other than SUCCESS (never delivered)
         * @return this
         */
        public Builder errorCompletions(long v) {
            errorCompletions = v;
            return this;
        }

        /**
         * Sets {@code limitEvents}.
         *
         * @param v IBV_EVENT_SRQ_LIMIT_REACHED taken
         * @return this
         */
        public Builder limitEvents(long v) {
            limitEvents = v;
            return this;
        }

        /**
         * Sets {@code outstanding}.
         *
         * @param v receive WRs posted and not yet consumed, now
         * @return this
         */
        public Builder outstanding(long v) {
            outstanding = v;
            return this;
        }

        /**
         * Sets {@code fill}.
         *
         * @param v the current fill level target
         * @return this
         */
        public Builder fill(int v) {
            fill = v;
            return this;
        }

        /**
         * Sets {@code connections}.
         *
         * @param v connections on the SRQ now
         * @return this
         */
        public Builder connections(int v) {
            connections = v;
            return this;
        }

        /**
         * Sets {@code rejectedByReason}.
         *
         * @param v rejected connect requests by reason name, copied in its order
         * @return this
         */
        public Builder rejectedByReason(Map<String, Long> v) {
            rejectedByReason = Objects.requireNonNull(v, "rejectedByReason");
            return this;
        }

        /**
         * Sets {@code copiedOut}.
         *
         * @param v messages copied out past maxHeldPerConnection
         * @return this
         */
        public Builder copiedOut(long v) {
            copiedOut = v;
            return this;
        }

        /**
         * Sets {@code slowDisconnects}.
         *
         * @param v connections disconnected for holding too much
         * @return this
         */
        public Builder slowDisconnects(long v) {
            slowDisconnects = v;
            return this;
        }

        /**
         * Sets {@code halfOpenReaped}.
         *
         * @param v accepted connections closed before they were established
         * @return this
         */
        public Builder halfOpenReaped(long v) {
            halfOpenReaped = v;
            return this;
        }

        /**
         * Sets {@code rebalances}.
         *
         * @param v connections moved to another provider of their service
         * @return this
         */
        public Builder rebalances(long v) {
            rebalances = v;
            return this;
        }

        /**
         * Sets {@code serviceProviders}.
         *
         * @param v providers of the activation's service now
         * @return this
         */
        public Builder serviceProviders(int v) {
            serviceProviders = v;
            return this;
        }

        /**
         * Sets {@code retained}.
         *
         * @param v receive buffers retained now
         * @return this
         */
        public Builder retained(int v) {
            retained = v;
            return this;
        }

        /**
         * Sets {@code leavingConnections}.
         *
         * @param v connections leaving now
         * @return this
         */
        public Builder leavingConnections(int v) {
            leavingConnections = v;
            return this;
        }

        /**
         * Sets {@code closedConnections}.
         *
         * @param v connections destroyed after their last completions were polled
         * @return this
         */
        public Builder closedConnections(long v) {
            closedConnections = v;
            return this;
        }

        /**
         * Sets {@code closedOnLastWqe}.
         *
         * @param v of those, the ones IBV_EVENT_QP_LAST_WQE_REACHED announced
         * @return this
         */
        public Builder closedOnLastWqe(long v) {
            closedOnLastWqe = v;
            return this;
        }

        /**
         * Builds the snapshot.
         *
         * @return the snapshot
         * @throws NullPointerException naming srqName or device when one was not set
         */
        public ActivationStatistics build() {
            return new ActivationStatistics(this);
        }
    }
}
