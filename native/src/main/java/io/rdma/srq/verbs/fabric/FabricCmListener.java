package io.rdma.srq.verbs.fabric;

import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.ConnectionParameters;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.ffi.fabric.Fabric;
import io.rdma.srq.verbs.ffi.fabric.fi_info;
import io.rdma.srq.verbs.spi.EventQueue;
import io.rdma.srq.verbs.spi.ResourceBase;
import io.rdma.srq.verbs.spi.SockAddr;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A listener as a passive endpoint (fi_passive_ep(3), fi_listen(3)) with one EQ that it shares with
 * every endpoint it accepts, so that — as on an rdma_cm listener's channel — {@link #nextEvent}
 * reports CONNECT_REQUEST (FI_CONNREQ), and ESTABLISHED (FI_CONNECTED), DISCONNECTED (FI_SHUTDOWN)
 * and CONNECT_ERROR (an error entry before FI_CONNECTED) of the accepted connections. EQ events of
 * different connections interleave (driver note 27): each is routed to its connection by the fid it
 * names; an event of a connection closed already is dropped.
 */
final class FabricCmListener extends ResourceBase implements CmListener {
    private final FabricContext context;
    private final MemorySegment info;
    private final long rawPep;
    private final MemorySegment pep;
    private final FabricEq eq;
    private final InetSocketAddress local;
    private final Map<Long, FabricCmConnection> connections = new ConcurrentHashMap<>();
    /** Events read by {@link #accept} while it drove its handshake, for {@link #nextEvent}. Guarded by itself. */
    private final ArrayDeque<CmEvent> pending = new ArrayDeque<>();
    /** How long {@link #accept} drives the handshake before leaving it to {@link #nextEvent}. */
    private static final Duration HANDSHAKE = Duration.ofSeconds(1);

    private FabricCmListener(FabricContext context, MemorySegment info, long rawPep, FabricEq eq,
                             InetSocketAddress local) {
        super(context, "listener on " + local + " (" + context.deviceName() + ")", "rdma_destroy_id");
        this.context = context;
        this.info = info;
        this.rawPep = rawPep;
        this.pep = MemorySegment.ofAddress(rawPep).reinterpret(scope(), null);
        this.eq = eq;
        this.local = local;
    }

    /**
     * fi_getinfo(3) with FI_SOURCE for {@code address}, fi_passive_ep, fi_pep_bind to a new EQ,
     * fi_listen (the backlog is the provider's; libfabric takes none).
     *
     * @throws VerbsException EADDRINUSE, EADDRNOTAVAIL, … from libfabric
     */
    static FabricCmListener create(FabricContext context, InetSocketAddress address) {
        MemorySegment info = context.info(address.getAddress().getHostAddress(), String.valueOf(address.getPort()),
                Fabric.FI_SOURCE());
        FabricEq eq = null;
        long raw = 0;
        try (Arena arena = Arena.ofConfined()) {
            eq = new FabricEq(context.fabric());
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            FabricOps.check("fi_passive_ep", FabricOps.passiveEp(context.fabric(), info, out, MemorySegment.NULL));
            raw = out.get(ValueLayout.ADDRESS, 0).address();
            MemorySegment pep = MemorySegment.ofAddress(raw);
            FabricOps.check("fi_pep_bind", FabricOps.bind(pep, eq.handle(), 0));
            FabricOps.check("fi_listen", FabricOps.listen(pep));
            MemorySegment name = arena.allocate(128, 8);
            MemorySegment length = arena.allocate(ValueLayout.JAVA_LONG);
            length.set(ValueLayout.JAVA_LONG, 0, 128);
            FabricOps.check("fi_getname", FabricOps.getnamePassive(pep, name, length));
            return new FabricCmListener(context, info, raw, eq, SockAddr.from(name));
        } catch (RuntimeException e) {
            if (raw != 0) {
                FabricOps.close(MemorySegment.ofAddress(raw));
            }
            if (eq != null) {
                eq.release();
            }
            Fabric.fi_freeinfo(info);
            if (e instanceof VerbsException v && v.errno() == Errno.EADDRINUSE.value()) {
                throw new VerbsException("rdma_bind_addr", Errno.EADDRINUSE, address + " is in use");
            }
            throw e;
        }
    }

    @Override
    public InetSocketAddress localAddress() {
        return local;
    }

    @Override
    public Optional<CmEvent> nextEvent(Duration timeout) {
        ensureOpen();
        synchronized (pending) {
            if (!pending.isEmpty()) {
                return Optional.of(pending.poll());
            }
        }
        long deadline = System.nanoTime() + EventQueue.toNanos(timeout);
        long pause = 10_000;
        while (true) {
            Optional<FabricEq.Event> read = eq.read();
            if (read.isPresent()) {
                Optional<CmEvent> event = toCmEvent(read.get());
                if (event.isPresent()) {
                    return event;
                }
                continue;
            }
            progressAccepted();
            synchronized (pending) {
                if (!pending.isEmpty()) {
                    return Optional.of(pending.poll());
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || Thread.currentThread().isInterrupted()) {
                return Optional.empty();
            }
            java.util.concurrent.locks.LockSupport.parkNanos(Math.min(pause, left));
            pause = Math.min(pause * 2, 1_000_000);
        }
    }

    /**
     * Reads the CQs of the accepted connections once: the tcp provider notices a peer's shutdown
     * while it progresses the endpoint (driver note 27), so FI_SHUTDOWN comes without the
     * application polling.
     */
    private void progressAccepted() {
        java.util.Set<FabricCompletionQueue> cqs = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (FabricCmConnection c : connections.values()) {
            FabricQueuePair qp = (FabricQueuePair) c.qp();
            if (!qp.isClosed()) {
                cqs.add(qp.sendCq());
                cqs.add(qp.recvCq());
            }
        }
        for (FabricCompletionQueue cq : cqs) {
            cq.tryProgress(); // unless a poller reads it anyway (or sleeps in fi_wait for it)
        }
    }

    /** Queues an event of an accepted connection for {@link #nextEvent} (its own disconnect). */
    void report(CmEvent event) {
        synchronized (pending) {
            pending.add(event);
        }
    }

    private Optional<CmEvent> toCmEvent(FabricEq.Event e) {
        if (e.type() == Fabric.FI_CONNREQ()) {
            MemorySegment request = e.info().reinterpret(fi_info.sizeof());
            MemorySegment dest = fi_info.dest_addr(request);
            InetSocketAddress remote = dest.equals(MemorySegment.NULL)
                    ? InetSocketAddress.createUnresolved("unknown", 0) : SockAddr.from(dest);
            return Optional.of(new CmEvent(CmEventType.CONNECT_REQUEST, 0,
                    new FabricCmRequest(this, request, e.data(), remote), null));
        }
        FabricCmConnection c = connections.get(e.fid());
        if (c == null || c.isClosed()) {
            return Optional.empty();
        }
        if (e.type() == Fabric.FI_CONNECTED()) {
            c.established(true);
            return Optional.of(new CmEvent(CmEventType.ESTABLISHED, 0, null, c));
        }
        boolean was = c.isEstablished();
        if (!c.markDown()) {
            return Optional.empty(); // its DISCONNECTED was reported already
        }
        if (e.type() == FabricEq.ERROR && !was) {
            return Optional.of(new CmEvent(CmEventType.CONNECT_ERROR, -e.errno(), null, c));
        }
        return Optional.of(new CmEvent(CmEventType.DISCONNECTED, 0, null, c));
    }

    CmConnection accept(FabricCmRequest request, MemorySegment requestInfo, QueuePair qp,
                        ConnectionParameters parameters) {
        ensureOpen();
        FabricQueuePair q = context.queuePairOf(qp, "rdma_accept");
        MemorySegment ep;
        try {
            ep = q.realize(requestInfo, eq, parameters);
        } catch (RuntimeException e) {
            reject(requestInfo, new byte[0]);
            throw e;
        }
        FabricCmConnection c = new FabricCmConnection(context, q, request.remoteAddress(), this, eq);
        connections.put(c.fid(), c);
        try {
            FabricOps.check("fi_accept", FabricOps.accept(ep, MemorySegment.NULL, 0));
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
        driveHandshake(c);
        return c;
    }

    /**
     * Reads the EQ until {@code c}'s FI_CONNECTED (or error), at most {@link #HANDSHAKE}, keeping
     * what it reads for {@link #nextEvent}: libfabric's tcp provider sends its accept only while
     * the EQ is read (FI_PROGRESS_MANUAL), where rdma_accept(3) needs no reader.
     */
    private void driveHandshake(FabricCmConnection c) {
        long deadline = System.nanoTime() + HANDSHAKE.toNanos();
        while (System.nanoTime() - deadline < 0) {
            Optional<FabricEq.Event> read = eq.read(Duration.ofMillis(1));
            if (read.isEmpty()) {
                continue;
            }
            Optional<CmEvent> event = toCmEvent(read.get());
            if (event.isEmpty()) {
                continue;
            }
            synchronized (pending) {
                pending.add(event.get());
            }
            if (event.get().connection() == c) {
                return;
            }
        }
    }

    void reject(MemorySegment requestInfo, byte[] data) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment param = data.length == 0 ? MemorySegment.NULL
                    : arena.allocateFrom(ValueLayout.JAVA_BYTE, data);
            if (!isClosed()) {
                FabricOps.check("fi_reject", FabricOps.reject(pep, fi_info.handle(requestInfo), param, data.length));
            }
        } finally {
            Fabric.fi_freeinfo(requestInfo);
        }
    }

    void forget(FabricCmConnection c) {
        connections.remove(c.fid(), c);
    }

    @Override
    protected void destroy() {
        FabricOps.close(MemorySegment.ofAddress(rawPep));
        eq.release();
        Fabric.fi_freeinfo(info);
    }
}
