package io.rdma.srq.verbs;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;

import java.io.Serial;

/**
 * A librpma call failed with an RPMA_E_* code; the message carries librpma's own text
 * (rpma_err_2str(3)) and the errno it stands for (for RPMA_E_PROVIDER: the provider's errno).
 */
public class RpmaException extends VerbsException {
    @Serial
    private static final long serialVersionUID = 1L;
    /** RPMA_E_NOSUPP */
    public static final int NOSUPP = -100001;
    /** RPMA_E_PROVIDER */
    public static final int PROVIDER = -100002;
    /** RPMA_E_NOMEM */
    public static final int NOMEM = -100003;
    /** RPMA_E_INVAL */
    public static final int INVAL = -100004;

    /** The RPMA_E_* value. */
    private final int rpmaError;

    /**
     * A failed librpma call.
     *
     * @param operation     the librpma function
     * @param rpmaError     its RPMA_E_* return value
     * @param text          rpma_err_2str of it
     * @param providerErrno errno of the provider, for RPMA_E_PROVIDER (0 if unknown)
     * @param detail        what was asked
     */
    public RpmaException(String operation, int rpmaError, String text, int providerErrno, String detail) {
        super(operation, errnoOf(rpmaError, providerErrno), name(rpmaError) + " (" + text + ")"
                + (detail == null ? "" : ": " + detail));
        this.rpmaError = rpmaError;
    }

    private static int errnoOf(int rpmaError, int providerErrno) {
        return switch (rpmaError) {
            case INVAL -> Errno.EINVAL.value();
            case NOMEM -> Errno.ENOMEM.value();
            case NOSUPP -> Errno.EOPNOTSUPP.value();
            case PROVIDER -> providerErrno > 0 ? providerErrno : Errno.EIO.value();
            default -> Errno.EIO.value();
        };
    }

    /**
     * {@return its macro name}
     *
     * @param code an RPMA_E_* value
     */
    public static String name(int code) {
        return switch (code) {
            case -100000 -> "RPMA_E_UNKNOWN";
            case NOSUPP -> "RPMA_E_NOSUPP";
            case PROVIDER -> "RPMA_E_PROVIDER";
            case NOMEM -> "RPMA_E_NOMEM";
            case INVAL -> "RPMA_E_INVAL";
            case -100005 -> "RPMA_E_NO_COMPLETION";
            case -100006 -> "RPMA_E_NO_EVENT";
            case -100007 -> "RPMA_E_AGAIN";
            case -100008 -> "RPMA_E_SHARED_CHANNEL";
            case -100009 -> "RPMA_E_NOT_SHARED_CHNL";
            default -> "RPMA error " + code;
        };
    }

    /** {@return the RPMA_E_* value} */
    public int rpmaError() {
        return rpmaError;
    }
}
