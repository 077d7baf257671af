package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.ConnectRejectedException;
import io.rdma.srq.verbs.ffi.rdmacm.RdmaCm;
import io.rdma.srq.verbs.ffi.rdmacm.rdma_cm_event;
import io.rdma.srq.verbs.ffi.rdmacm.rdma_conn_param;
import io.rdma.srq.verbs.ffi.rdmacm.rdma_event_channel;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.time.Duration;
import java.util.Optional;

/**
 * An rdma_cm event channel (rdma_create_event_channel(3)) with a non-blocking fd: events are
 * waited for with poll(2) and a timeout, copied, and acked (rdma_ack_cm_event) at once.
 */
final class CmChannel {
    static final String LIBRARY = "librdmacm.so.1";
    private static final boolean AVAILABLE = io.rdma.srq.verbs.spi.NativeLibrary.loads(LIBRARY);

    /** The librdmacm calls, linked only once the library is known to load. */
    static final class H {
        static final MethodHandle CREATE_CHANNEL = NativeCall.capturing(RdmaCm.rdma_create_event_channel$address(), RdmaCm.rdma_create_event_channel$descriptor());
        static final MethodHandle CREATE_ID = NativeCall.capturing(RdmaCm.rdma_create_id$address(), RdmaCm.rdma_create_id$descriptor());
        static final MethodHandle DESTROY_ID = NativeCall.capturing(RdmaCm.rdma_destroy_id$address(), RdmaCm.rdma_destroy_id$descriptor());
        static final MethodHandle BIND = NativeCall.capturing(RdmaCm.rdma_bind_addr$address(), RdmaCm.rdma_bind_addr$descriptor());
        static final MethodHandle LISTEN = NativeCall.capturing(RdmaCm.rdma_listen$address(), RdmaCm.rdma_listen$descriptor());
        static final MethodHandle RESOLVE_ADDR = NativeCall.capturing(RdmaCm.rdma_resolve_addr$address(), RdmaCm.rdma_resolve_addr$descriptor());
        static final MethodHandle RESOLVE_ROUTE = NativeCall.capturing(RdmaCm.rdma_resolve_route$address(), RdmaCm.rdma_resolve_route$descriptor());
        static final MethodHandle CONNECT = NativeCall.capturing(RdmaCm.rdma_connect$address(), RdmaCm.rdma_connect$descriptor());
        static final MethodHandle ACCEPT = NativeCall.capturing(RdmaCm.rdma_accept$address(), RdmaCm.rdma_accept$descriptor());
        static final MethodHandle REJECT = NativeCall.capturing(RdmaCm.rdma_reject$address(), RdmaCm.rdma_reject$descriptor());
        static final MethodHandle DISCONNECT = NativeCall.capturing(RdmaCm.rdma_disconnect$address(), RdmaCm.rdma_disconnect$descriptor());
        static final MethodHandle ESTABLISH = NativeCall.capturing(RdmaCm.rdma_establish$address(), RdmaCm.rdma_establish$descriptor());
        static final MethodHandle INIT_QP_ATTR = NativeCall.capturing(RdmaCm.rdma_init_qp_attr$address(), RdmaCm.rdma_init_qp_attr$descriptor());
        static final MethodHandle GET_EVENT = NativeCall.capturing(RdmaCm.rdma_get_cm_event$address(), RdmaCm.rdma_get_cm_event$descriptor());

        private H() {
        }
    }

    static final int RDMA_PS_TCP = 0x0106;

    /** A copied, acked event. */
    record Raw(CmEventType type, int status, long id, long listenId, byte[] privateData) {
    }

    private final MemorySegment channel;
    private final int fd;


    /**
     * The {@code ibv_context} librdmacm itself opened for a device (rdma_get_devices(3)): objects that
     * librdmacm or librpma attach to its ids (rdma_create_qp) must live on it, not on a context of ours.
     * It belongs to librdmacm and is never closed here.
     *
     * @param deviceName the device
     * @return the context
     * @throws VerbsException ENOSYS without librdmacm, ENODEV if librdmacm does not list the device
     */
    static MemorySegment cmContext(String deviceName) throws VerbsException {
        ensureAvailable();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment num = arena.allocate(ValueLayout.JAVA_INT);
            MemorySegment list = RdmaCm.rdma_get_devices(num);
            if (list.address() == 0) {
                throw new VerbsException("rdma_get_devices", Errno.ENODEV, "librdmacm lists no device");
            }
            try {
                int n = num.get(ValueLayout.JAVA_INT, 0);
                MemorySegment contexts = list.reinterpret(n * ValueLayout.ADDRESS.byteSize());
                for (int i = 0; i < n; i++) {
                    MemorySegment ctx = contexts.getAtIndex(ValueLayout.ADDRESS, i);
                    MemorySegment device = io.rdma.srq.verbs.ffi.ibverbs.ibv_context.device(
                            ctx.reinterpret(io.rdma.srq.verbs.ffi.ibverbs.ibv_context.sizeof()));
                    String name = io.rdma.srq.verbs.ffi.ibverbs.IbVerbs.ibv_get_device_name(device)
                            .reinterpret(Integer.MAX_VALUE).getString(0);
                    if (name.equals(deviceName)) {
                        return ctx;
                    }
                }
            } finally {
                RdmaCm.rdma_free_devices(list);
            }
            throw new VerbsException("rdma_get_devices", Errno.ENODEV, "librdmacm does not list " + deviceName);
        }
    }

    /**
     * rdma_get_devices(3) + rdma_free_devices(3) for their side effect: librdmacm re-reads the device
     * list and closes its cached {@code ibv_context} of every device no longer listed that no id uses
     * (cma.c {@code sync_devices_list} → {@code remove_cma_dev}), or marks it to be closed when its
     * last id goes. It opens a context of every listed device it had not opened yet (it caches them).
     * Nothing when librdmacm is missing or lists no device at all (then it keeps what it has).
     */
    static void releaseRemovedDevices() {
        if (!AVAILABLE) {
            return;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment list = RdmaCm.rdma_get_devices(arena.allocate(ValueLayout.JAVA_INT));
            if (list.address() != 0) {
                RdmaCm.rdma_free_devices(list);
            }
        }
    }

    static void ensureAvailable() throws VerbsException {
        if (!AVAILABLE) {
            throw new VerbsException("rdma_create_event_channel", Errno.ENOSYS,
                    LIBRARY + " cannot be loaded: install Debian's librdmacm1");
        }
    }

    CmChannel() throws VerbsException {
        ensureAvailable();
        this.channel = NativeCall.pointer("rdma_create_event_channel", null, H.CREATE_CHANNEL, null)
                .reinterpret(rdma_event_channel.sizeof());
        this.fd = rdma_event_channel.fd(channel);
        try {
            Posix.setNonBlocking(fd);
        } catch (VerbsException e) {
            destroy();
            throw e;
        }
    }

    MemorySegment pointer() {
        return channel;
    }

    /** rdma_create_id(3) on this channel, RDMA_PS_TCP. */
    MemorySegment createId() throws VerbsException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cell = arena.allocate(ValueLayout.ADDRESS);
            NativeCall.status("rdma_create_id", null, H.CREATE_ID, null, channel, cell, MemorySegment.NULL, RDMA_PS_TCP);
            return cell.get(ValueLayout.ADDRESS, 0);
        }
    }

    /**
     * @param owner   the scope of the object the channel belongs to, held during each poll slice
     * @param timeout the longest wait
     */
    Optional<Raw> next(Arena owner, Duration timeout) throws VerbsException {
        if (!Posix.readable(fd, owner, timeout)) {
            return Optional.empty();
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cell = arena.allocate(ValueLayout.ADDRESS);
            try {
                NativeCall.status("rdma_get_cm_event", null, H.GET_EVENT, null, channel, cell);
            } catch (VerbsException e) {
                if (e.is(Errno.EAGAIN)) {
                    return Optional.empty();
                }
                throw e;
            }
            MemorySegment event = cell.get(ValueLayout.ADDRESS, 0).reinterpret(rdma_cm_event.sizeof());
            MemorySegment conn = rdma_cm_event.param.conn(rdma_cm_event.param(event));
            int len = Byte.toUnsignedInt(rdma_conn_param.private_data_len(conn));
            MemorySegment pd = rdma_conn_param.private_data(conn);
            byte[] privateData = pd.address() == 0 || len == 0 ? new byte[0]
                    : pd.reinterpret(len).toArray(ValueLayout.JAVA_BYTE);
            Raw raw = new Raw(CmEventType.of(rdma_cm_event.event(event)), rdma_cm_event.status(event),
                    rdma_cm_event.id(event).address(), rdma_cm_event.listen_id(event).address(), privateData);
            RdmaCm.rdma_ack_cm_event(event);
            return Optional.of(raw);
        }
    }

    /**
     * Waits for one event of {@code expected} type on {@code id}, failing on any other.
     */
    Raw await(long id, CmEventType expected, Duration timeout, String step) throws VerbsException {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Arena waiting = Arena.ofConfined()) {
            return await(id, expected, deadline, timeout, step, waiting);
        }
    }

    private Raw await(long id, CmEventType expected, long deadline, Duration timeout, String step, Arena waiting)
            throws VerbsException {
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new VerbsException("rdma_get_cm_event", Errno.ETIMEDOUT, "no " + expected + " within "
                        + timeout.toMillis() + " ms while " + step);
            }
            Optional<Raw> raw = next(waiting, Duration.ofNanos(left));
            if (raw.isEmpty() || raw.get().id() != id) {
                continue;
            }
            if (raw.get().type() == expected) {
                return raw.get();
            }
            if (raw.get().type() == CmEventType.REJECTED) {
                throw new ConnectRejectedException(raw.get().status(), raw.get().privateData(), "while " + step);
            }
            throw new VerbsException("rdma_get_cm_event", raw.get().type().failureErrno(),
                    "RDMA_CM_EVENT_" + raw.get().type() + " (status " + raw.get().status() + ") while " + step);
        }
    }

    /**
     * Undoes a failed setup: destroys {@code id} (if one was created) and this channel, adding any
     * failure to {@code cause}.
     *
     * @param id    the id created on this channel, or {@code null}
     * @param cause the failure being reported
     */
    void abandon(MemorySegment id, Exception cause) {
        if (id != null) {
            try {
                NativeCall.status("rdma_destroy_id", null, H.DESTROY_ID, null, id);
            } catch (VerbsException suppressed) {
                cause.addSuppressed(suppressed);
            }
        }
        destroy();
    }

    void destroy() {
        RdmaCm.rdma_destroy_event_channel(channel);
    }
}
