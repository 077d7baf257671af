package io.rdma.srq.api;

import java.time.Instant;
import java.util.Objects;

/**
 * CDI event fired when an activation's SRQ, or a pooled SRQ of a connection definition, raised
 * IBV_EVENT_SRQ_LIMIT_REACHED (ibv_get_async_event(3)): fewer than {@code limit} receive WRs were left. Observe it with {@code @Observes} or
 * {@code @ObservesAsync SrqLimitReached}. By the time it is seen, the adapter has replenished the SRQ
 * and re-armed the (one-shot) limit.
 *
 * <p>Made by the adapter only ({@link #builder()}); a later version may add accessors, never remove
 * or change one, so observers keep compiling and running. Equality is by value, over every accessor.
 */
public final class SrqLimitReached {
    private final String srqName;
    private final String device;
    private final int limit;
    private final int outstanding;
    private final Instant time;

    private SrqLimitReached(Builder b) {
        this.srqName = Objects.requireNonNull(b.srqName, "srqName");
        this.device = Objects.requireNonNull(b.device, "device");
        this.limit = b.limit;
        this.outstanding = b.outstanding;
        this.time = Objects.requireNonNull(b.time, "time");
    }

    /** {@return a builder: every field must be set but the counts (0 unless set)} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * {@return the activation's SRQ name (its MDB's name or the configured srqName), or the name a
     *          pooled SRQ was opened with ({@code SrqConnection.openSrq} / connect)}
     */
    public String srqName() {
        return srqName;
    }

    /** {@return the device name} */
    public String device() {
        return device;
    }

    /** {@return the srq_limit that fired, in WRs} */
    public int limit() {
        return limit;
    }

    /**
     * {@return receive WRs posted and not yet consumed when the adapter handled the event; the
     *          poller keeps reposting, so this is often above {@link #limit()} by then (the device
     *          saw fewer than {@code limit} when it raised the event)}
     */
    public int outstanding() {
        return outstanding;
    }

    /** {@return when the adapter took the event} */
    public Instant time() {
        return time;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SrqLimitReached e && limit == e.limit && outstanding == e.outstanding
                && srqName.equals(e.srqName) && device.equals(e.device) && time.equals(e.time);
    }

    @Override
    public int hashCode() {
        return Objects.hash(srqName, device, limit, outstanding, time);
    }

    @Override
    public String toString() {
        return "SrqLimitReached[srqName=" + srqName + ", device=" + device + ", limit=" + limit + ", outstanding="
                + outstanding + ", time=" + time + "]";
    }

    /** Builds an {@link SrqLimitReached} (the adapter's). Not thread-safe. */
    public static final class Builder {
        private String srqName;
        private String device;
        private int limit;
        private int outstanding;
        private Instant time;

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
         * @param v the device name
         * @return this
         */
        public Builder device(String v) {
            device = v;
            return this;
        }

        /**
         * Sets {@code limit}.
         *
         * @param v the srq_limit that fired, WRs
         * @return this
         */
        public Builder limit(int v) {
            limit = v;
            return this;
        }

        /**
         * Sets {@code outstanding}.
         *
         * @param v receive WRs outstanding when handled
         * @return this
         */
        public Builder outstanding(int v) {
            outstanding = v;
            return this;
        }

        /**
         * Sets {@code time}.
         *
         * @param v when the adapter took the event
         * @return this
         */
        public Builder time(Instant v) {
            time = v;
            return this;
        }

        /**
         * Builds the event.
         *
         * @return the event
         * @throws NullPointerException naming srqName, device or time when one was not set
         */
        public SrqLimitReached build() {
            return new SrqLimitReached(this);
        }
    }
}
