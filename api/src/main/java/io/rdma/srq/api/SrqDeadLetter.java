package io.rdma.srq.api;

import java.time.Instant;
import java.util.Objects;

/**
 * CDI event fired when every delivery attempt of a message failed (activation property
 * {@code maxDeliveryAttempts}; a failed attempt is an exception out of the listener or out of
 * before/afterDelivery, or a rolled-back container transaction): the dead-letter hook. Observe it
 * with {@code @Observes SrqDeadLetter} (run on the delivering thread, before the message's receive
 * buffer goes back to the SRQ: a slow observer holds back that endpoint) or {@code @ObservesAsync}.
 * The adapter does not keep the message any further: store or forward the copy here.
 *
 * <p>Made by the adapter only; new fields come as new accessors, so observers keep compiling.
 */
public final class SrqDeadLetter extends OwnedMessage {
    private final String srqName;
    private final long connectionId;
    private final int attempts;
    private final Throwable lastFailure;
    private final Instant time;

    /**
     * Made by the adapter when it gives up on a message.
     *
     * @param srqName      the activation's SRQ name
     * @param connectionId the connection the message arrived on ({@link ReceiveCompletion#connectionId()})
     * @param payload      a copy of the message bytes (kept, not copied again)
     * @param hasImmData   whether the sender used SEND_WITH_IMM
     * @param immData      imm_data in host byte order, 0 without
     * @param attempts     delivery attempts made, ≥ 1
     * @param lastFailure  why the last attempt failed
     * @param time         when the adapter gave up
     */
    public SrqDeadLetter(String srqName, long connectionId, byte[] payload, boolean hasImmData, int immData,
                         int attempts, Throwable lastFailure, Instant time) {
        super(payload, hasImmData, immData);
        this.srqName = Objects.requireNonNull(srqName, "srqName");
        this.connectionId = connectionId;
        this.attempts = attempts;
        this.lastFailure = Objects.requireNonNull(lastFailure, "lastFailure");
        this.time = Objects.requireNonNull(time, "time");
    }

    /** {@return the activation's SRQ name} */
    public String srqName() {
        return srqName;
    }

    /** {@return the id of the connection the message arrived on (never reused)} */
    public long connectionId() {
        return connectionId;
    }

    /** {@return delivery attempts made, all failed} */
    public int attempts() {
        return attempts;
    }

    /** {@return why the last attempt failed: the listener's exception, or the container's rollback} */
    public Throwable lastFailure() {
        return lastFailure;
    }

    /** {@return when the adapter gave up on the message} */
    public Instant time() {
        return time;
    }

    @Override
    public String toString() {
        return "SrqDeadLetter[srqName=" + srqName + ", connectionId=" + connectionId + ", " + describeBytes()
                + ", attempts=" + attempts + ", lastFailure=" + lastFailure + ", time=" + time + "]";
    }

    @Override
    public boolean equals(Object o) {
        return super.equals(o) && o instanceof SrqDeadLetter d && connectionId == d.connectionId
                && attempts == d.attempts && srqName.equals(d.srqName) && time.equals(d.time);
    }

    @Override
    public int hashCode() {
        return Objects.hash(super.hashCode(), srqName, connectionId, attempts, time);
    }
}
