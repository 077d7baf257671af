package io.rdma.srq.ra.inbound.lifecycle;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;

import java.util.Set;

/**
 * Tells an open failure that may go away by itself (the device or the address is not there yet, the
 * link is down) from one that will not (a property beyond a device limit, EINVAL, EOPNOTSUPP,
 * EADDRINUSE, ENOMEM of a pinned-memory limit): the first is retried with backoff, the second fails
 * the activation. The errno is the first {@link VerbsException} among the causes.
 */
final class OpenFailure {
    /**
     * ENODEV: no such device (ibv_open_device, the device list; rxe not added yet, the module not
     * loaded); ENXIO: the device went away while being opened; EADDRNOTAVAIL: the listen address is
     * not (yet) an address of an RDMA device (rdma_bind_addr(3)); ENETDOWN: no port ACTIVE;
     * ENETUNREACH, EHOSTUNREACH: no route yet to connect to; EAGAIN: try again.
     */
    private static final Set<Errno> TRANSIENT = Set.of(Errno.ENODEV, Errno.ENXIO, Errno.EADDRNOTAVAIL,
            Errno.ENETDOWN, Errno.ENETUNREACH, Errno.EHOSTUNREACH, Errno.EAGAIN);

    private OpenFailure() {
    }

    /** {@return the errno of the first VerbsException among {@code failure} and its causes, or null} */
    static Errno errno(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof VerbsException v) {
                return v.errnoConstant().orElse(null);
            }
        }
        return null;
    }

    /** {@return whether retrying may cure {@code failure}} */
    static boolean isTransient(Throwable failure) {
        Errno errno = errno(failure);
        return errno != null && TRANSIENT.contains(errno);
    }
}
