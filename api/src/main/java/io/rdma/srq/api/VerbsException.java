package io.rdma.srq.api;

import java.io.Serial;
import java.util.Objects;
import java.util.Optional;

/**
 * The adapter's one exception family: a verb or library call failed. It names the operation (the C
 * function, e.g. {@code ibv_modify_srq}), the errno value and its symbolic name, and optionally what
 * was being done. Every failure the API reports — opening an SRQ, registering memory, connecting,
 * sending, flushing, replying, calling, receiving — is this type or one of its subclasses, so one
 * {@code catch (VerbsException e)} and {@link #errnoName()} see them all; the subclasses of
 * {@link SrqCallException} say what the caller of a peer should do next.
 *
 * <p><b>Unchecked</b>, as Jakarta Messaging's simplified API ({@code JMSRuntimeException}) and
 * Jakarta Persistence are: most failures are not recoverable where they happen (a lost peer, a lost
 * device), the API is used from lambdas and {@link java.util.concurrent.CompletableFuture}s, and an
 * MDB that lets one escape has the container roll its transaction back and redeliver, which is
 * what a failed reply should cause. Where a failure is recoverable the method's documentation
 * names the errno.
 *
 * <p>Message form: {@code "ibv_modify_srq: EINVAL (22, Invalid argument): srq_limit 4096 > max_wr 2047"}.
 * The errno is the one the real stack gives for the same call (see the call's man page); the
 * soft device reports the same values.
 */
public class VerbsException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** The failing function, e.g. {@code ibv_create_srq}. */
    private final String operation;
    /** The positive errno value. */
    private final int errno;

    /**
     * A failure with an errno value.
     *
     * @param operation the verb or library function that failed, e.g. {@code ibv_create_srq}
     * @param errno     the positive errno value it reported
     * @param detail    what was attempted, or {@code null}
     */
    public VerbsException(String operation, int errno, String detail) {
        super(format(operation, errno, detail));
        this.operation = Objects.requireNonNull(operation, "operation");
        this.errno = errno;
    }

    /**
     * A failure with an errno constant.
     *
     * @param operation the verb or library function that failed
     * @param errno     the errno it reported
     * @param detail    what was attempted, or {@code null}
     */
    public VerbsException(String operation, Errno errno, String detail) {
        this(operation, errno.value(), detail);
    }

    /**
     * A failure that takes its operation, errno and message from another one (for subclasses that
     * add what the caller should do).
     *
     * @param cause the failure
     */
    protected VerbsException(VerbsException cause) {
        super(cause.getMessage(), cause);
        this.operation = cause.operation;
        this.errno = cause.errno;
    }

    private static String format(String operation, int errno, String detail) {
        String text = Errno.of(errno).map(e -> e.name() + " (" + e.value() + ", " + e.description() + ")")
                .orElse("errno " + errno);
        return operation + ": " + text + (detail == null || detail.isEmpty() ? "" : ": " + detail);
    }

    /** {@return the failing function, e.g. {@code ibv_create_srq}} */
    public String operation() {
        return operation;
    }

    /** {@return the positive errno value} */
    public int errno() {
        return errno;
    }

    /** {@return the errno's symbolic name, e.g. {@code "EINVAL"}, or {@code "errno N"} if unknown} */
    public String errnoName() {
        return Errno.nameOf(errno);
    }

    /** {@return the errno as a constant, empty if the value is not a known Linux errno} */
    public Optional<Errno> errnoConstant() {
        return Errno.of(errno);
    }

    /**
     * {@return whether this failure carries that errno}
     *
     * @param expected an errno
     */
    public boolean is(Errno expected) {
        return expected.value() == errno;
    }
}
