package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.RpmaConnection;
import io.rdma.srq.verbs.RpmaEndpoint;
import io.rdma.srq.verbs.RpmaSrq;
import io.rdma.srq.verbs.ffi.rpma.Rpma;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.Optional;

/** {@link RpmaEndpoint} over {@code struct rpma_ep}; its fd is non-blocking and polled with a timeout. */
final class IbvRpmaEndpoint extends IbvResource implements RpmaEndpoint {
    private static final int RPMA_E_NO_EVENT = -100006;

    private final IbvRpmaPeer peer;
    private final int fd;

    private IbvRpmaEndpoint(IbvRpmaPeer peer, MemorySegment ep, int fd, String where) {
        super(peer, "rpma endpoint " + where, "rpma_ep_shutdown", ep, 0);
        this.peer = peer;
        this.fd = fd;
    }

    static IbvRpmaEndpoint listen(IbvRpmaPeer peer, String address, int port) throws VerbsException {
        String where = address + ":" + port;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cell = arena.allocate(ValueLayout.ADDRESS);
            Librpma.call("rpma_ep_listen", where, Librpma.H.EP_LISTEN, null, peer.handle(), arena.allocateFrom(address),
                    arena.allocateFrom(Integer.toString(port)), cell);
            MemorySegment ep = cell.get(ValueLayout.ADDRESS, 0);
            MemorySegment fdCell = arena.allocate(ValueLayout.JAVA_INT);
            Librpma.check("rpma_ep_get_fd", Rpma.rpma_ep_get_fd(ep, fdCell), where);
            int fd = fdCell.get(ValueLayout.JAVA_INT, 0);
            Posix.setNonBlocking(fd);
            return new IbvRpmaEndpoint(peer, ep, fd, where);
        }
    }

    @Override
    public Optional<RpmaConnection> accept(RpmaSrq srq, Duration timeout) throws VerbsException {
        ensureOpen();
        if (!Posix.readable(fd, scope(), timeout)) {
            return Optional.empty();
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cfgCell = arena.allocate(ValueLayout.ADDRESS);
            Librpma.check("rpma_conn_cfg_new", Rpma.rpma_conn_cfg_new(cfgCell), kind());
            MemorySegment cfg = cfgCell.get(ValueLayout.ADDRESS, 0);
            try {
                IbvRpmaSrq s = (IbvRpmaSrq) srq;
                Librpma.check("rpma_conn_cfg_set_srq", Rpma.rpma_conn_cfg_set_srq(cfg, s.handle()), kind());
                MemorySegment reqCell = arena.allocate(ValueLayout.ADDRESS);
                int rc = Librpma.call("rpma_ep_next_conn_req", kind(), Librpma.H.EP_NEXT_CONN_REQ, RPMA_E_NO_EVENT,
                        handle(), cfg, reqCell);
                if (rc == RPMA_E_NO_EVENT) {
                    return Optional.empty();
                }
                MemorySegment connCell = arena.allocate(ValueLayout.ADDRESS);
                Librpma.call("rpma_conn_req_connect", kind(), Librpma.H.CONN_REQ_CONNECT, null, reqCell,
                        MemorySegment.NULL, connCell);
                return Optional.of(IbvRpmaConnection.established(peer, s, connCell.get(ValueLayout.ADDRESS, 0), timeout));
            } finally {
                Rpma.rpma_conn_cfg_delete(cfgCell);
            }
        }
    }

    @Override
    protected void destroy() throws VerbsException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cell = arena.allocate(ValueLayout.ADDRESS);
            cell.set(ValueLayout.ADDRESS, 0, raw());
            Librpma.check("rpma_ep_shutdown", Rpma.rpma_ep_shutdown(cell), kind());
        }
    }
}
