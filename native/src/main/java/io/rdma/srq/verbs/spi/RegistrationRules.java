package io.rdma.srq.verbs.spi;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;

import java.lang.foreign.MemorySegment;

/** What ibv_reg_mr(3) refuses before it touches the device, for providers that check it themselves. */
public final class RegistrationRules {
    private RegistrationRules() {
    }

    /**
     * Checks a registration.
     *
     * @param buffer the memory: native, at least 1 byte
     * @param access the access flags' mask ({@link AccessFlag#toMask})
     * @throws VerbsException EINVAL for a heap or empty segment, or REMOTE_WRITE / REMOTE_ATOMIC
     *                        without LOCAL_WRITE (ibv_reg_mr(3))
     */
    public static void check(MemorySegment buffer, int access) {
        if (!buffer.isNative() || buffer.byteSize() == 0) {
            throw new VerbsException("ibv_reg_mr", Errno.EINVAL,
                    "the buffer must be a native segment of ≥ 1 byte, got " + buffer);
        }
        int remote = AccessFlag.REMOTE_WRITE.mask() | AccessFlag.REMOTE_ATOMIC.mask();
        if ((access & remote) != 0 && (access & AccessFlag.LOCAL_WRITE.mask()) == 0) {
            throw new VerbsException("ibv_reg_mr", Errno.EINVAL,
                    "REMOTE_WRITE or REMOTE_ATOMIC needs LOCAL_WRITE too (ibv_reg_mr(3)), access 0x"
                            + Integer.toHexString(access));
        }
    }
}
