package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.EfaDeviceAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.ffi.efa.EfaDv;
import io.rdma.srq.verbs.ffi.efa.efadv_device_attr;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * efadv_query_device(3) from libefa.so.1 (Debian's ibverbs-providers). The call gets
 * {@code inlen = sizeof(struct efadv_device_attr)} of the headers the bindings were generated from;
 * a libefa that knows fewer fields zeroes the rest, a newer one fills only what fits.
 */
final class EfaDirectVerbs {
    private static final boolean AVAILABLE = io.rdma.srq.verbs.spi.NativeLibrary.loads("libefa.so.1");
    private static final MethodHandle QUERY = AVAILABLE ? NativeCall.capturing(
            EfaDv.efadv_query_device$address(), EfaDv.efadv_query_device$descriptor()) : null;

    private EfaDirectVerbs() {
    }

    static Optional<EfaDeviceAttributes> query(MemorySegment context, String deviceName) throws VerbsException {
        if (!AVAILABLE) {
            return Optional.empty();
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(efadv_device_attr.layout());
            try {
                NativeCall.status("efadv_query_device", deviceName, QUERY, null, context, a,
                        (int) efadv_device_attr.sizeof());
            } catch (VerbsException e) {
                if (e.is(Errno.EOPNOTSUPP)) {
                    return Optional.empty();
                }
                throw e;
            }
            return Optional.of(EfaDeviceAttributes.builder()
                    .maxSqWr(Integer.toUnsignedLong(efadv_device_attr.max_sq_wr(a)))
                    .maxRqWr(Integer.toUnsignedLong(efadv_device_attr.max_rq_wr(a)))
                    .maxSqSge(Short.toUnsignedInt(efadv_device_attr.max_sq_sge(a)))
                    .maxRqSge(Short.toUnsignedInt(efadv_device_attr.max_rq_sge(a)))
                    .inlineBufSize(Short.toUnsignedInt(efadv_device_attr.inline_buf_size(a)))
                    .maxRdmaSize(Integer.toUnsignedLong(efadv_device_attr.max_rdma_size(a)))
                    .deviceCaps(Integer.toUnsignedLong(efadv_device_attr.device_caps(a)))
                    .build());
        }
    }
}
