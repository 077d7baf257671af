package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.RpmaConnection;
import io.rdma.srq.verbs.ffi.rpma.Rpma;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

/** {@link RpmaConnection} over {@code struct rpma_conn}; events are read from its non-blocking event fd. */
final class IbvRpmaConnection extends IbvResource implements RpmaConnection {
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(2);
    private final int fd;

    private IbvRpmaConnection(IbvRpmaPeer peer, IbvRpmaSrq srq, MemorySegment conn, int fd) {
        super(peer, "rpma connection", "rpma_conn_delete", conn, 0, srq);
        this.fd = fd;
    }

    /** Waits for RPMA_CONN_ESTABLISHED on a connection just made; deletes it if that does not come. */
    static IbvRpmaConnection established(IbvRpmaPeer peer, IbvRpmaSrq srq, MemorySegment conn, Duration timeout)
            throws VerbsException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fdCell = arena.allocate(ValueLayout.JAVA_INT);
            Librpma.check("rpma_conn_get_event_fd", Rpma.rpma_conn_get_event_fd(conn, fdCell), null);
            int fd = fdCell.get(ValueLayout.JAVA_INT, 0);
            int event = nextEvent(conn, fd, arena, timeout);
            if (event != Rpma.RPMA_CONN_ESTABLISHED()) {
                delete(conn);
                throw new VerbsException("rpma_conn_next_event", event < 0 ? Errno.ETIMEDOUT : Errno.ECONNABORTED,
                        event < 0 ? "no RPMA_CONN_ESTABLISHED within " + timeout.toMillis() + " ms"
                                : "RPMA connection event " + event + " instead of RPMA_CONN_ESTABLISHED");
            }
            return new IbvRpmaConnection(peer, srq, conn, fd);
        }
    }

    /** {@return the next rpma_conn_event, or −2 on timeout} */
    private static int nextEvent(MemorySegment conn, int fd, Arena scope, Duration timeout) throws VerbsException {
        if (!Posix.readable(fd, scope, timeout)) {
            return -2;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment event = arena.allocate(ValueLayout.JAVA_INT);
            Librpma.call("rpma_conn_next_event", null, Librpma.H.CONN_NEXT_EVENT, null, conn, event);
            return event.get(ValueLayout.JAVA_INT, 0);
        }
    }

    private static void delete(MemorySegment conn) throws VerbsException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cell = arena.allocate(ValueLayout.ADDRESS);
            cell.set(ValueLayout.ADDRESS, 0, conn);
            Librpma.check("rpma_conn_delete", Rpma.rpma_conn_delete(cell), null);
        }
    }

    @Override
    protected void destroy() throws VerbsException {
        MemorySegment conn = raw();
        Rpma.rpma_conn_disconnect(conn);
        try (Arena waiting = Arena.ofConfined()) {
            nextEvent(conn, fd, waiting, CLOSE_WAIT); // RPMA_CONN_CLOSED, bounded
        } catch (VerbsException ignored) {
            // deleted below regardless
        }
        delete(conn);
    }
}
