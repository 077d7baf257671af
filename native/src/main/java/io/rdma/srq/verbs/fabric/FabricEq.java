package io.rdma.srq.verbs.fabric;

import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.ffi.fabric.Fabric;
import io.rdma.srq.verbs.ffi.fabric.fi_eq_attr;
import io.rdma.srq.verbs.ffi.fabric.fi_eq_cm_entry;
import io.rdma.srq.verbs.ffi.fabric.fi_eq_err_entry;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * One libfabric event queue (fi_eq(3), FI_WAIT_NONE) of connection-management events, read
 * without blocking and waited on by polling with a growing pause (10 µs to 1 ms): the fabric
 * provider's rdma_cm event channel. Shared by a passive endpoint and the endpoints it accepted, so
 * it is reference-counted: the last {@link #release()} closes it (an EQ cannot close while an
 * endpoint is bound to it). Reads are serialized.
 */
final class FabricEq {
    /** Room for fi_eq_cm_entry and its private data (tcp carries at most 256 bytes, fi_tcp(7)). */
    private static final long ENTRY_BYTES = fi_eq_cm_entry.sizeof() + 256;
    private static final long MAX_PAUSE_NANOS = 1_000_000;

    /**
     * An event: its type (FI_CONNREQ, FI_CONNECTED, FI_SHUTDOWN, or {@link #ERROR}), the address of
     * the fid it names, a connection request's fi_info (NULL otherwise; the reader owns it), its
     * private data, and for an error the errno.
     */
    record Event(int type, long fid, MemorySegment info, byte[] data, int errno) {
    }

    /** The type of an error entry (fi_eq_readerr(3)); no FI_* event has it. */
    static final int ERROR = -1;

    private final Arena arena = Arena.ofShared();
    private final MemorySegment eq;
    private final MemorySegment type;
    private final MemorySegment entry;
    private final MemorySegment errEntry;
    private int references = 1;

    /**
     * fi_eq_open(3) on {@code fabric}, FI_WAIT_NONE, the provider's default size.
     *
     * @param fabric the fabric
     * @throws VerbsException the errno of fi_eq_open
     */
    FabricEq(MemorySegment fabric) {
        MemorySegment attr = arena.allocate(fi_eq_attr.layout());
        MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
        try {
            FabricOps.check("fi_eq_open", FabricOps.eqOpen(fabric, attr, out, MemorySegment.NULL));
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
        eq = out.get(ValueLayout.ADDRESS, 0);
        type = arena.allocate(ValueLayout.JAVA_INT);
        entry = arena.allocate(ENTRY_BYTES, 8);
        errEntry = arena.allocate(fi_eq_err_entry.layout());
    }

    /** {@return the struct fid_eq *, to bind endpoints to} */
    MemorySegment handle() {
        return eq;
    }

    /** Takes one more reference (an endpoint bound to this EQ). */
    synchronized void retain() {
        if (references == 0) {
            throw new IllegalStateException("event queue is closed");
        }
        references++;
    }

    /** Drops a reference; the last one closes the EQ (fi_close). */
    synchronized void release() {
        if (references == 0) {
            return;
        }
        if (--references == 0) {
            FabricOps.close(eq);
            arena.close();
        }
    }

    /**
     * fi_eq_read(3), or fi_eq_readerr(3) on -FI_EAVAIL, without waiting.
     *
     * @return the next event, or empty
     * @throws VerbsException another failure of fi_eq_read
     */
    synchronized Optional<Event> read() {
        if (references == 0) {
            return Optional.empty();
        }
        long rc = FabricOps.eqRead(eq, type, entry, ENTRY_BYTES, 0);
        if (rc == -Fabric.FI_EAGAIN()) {
            return Optional.empty();
        }
        if (rc == -Fabric.FI_EAVAIL()) {
            FabricOps.check("fi_eq_readerr", FabricOps.eqReadErr(eq, errEntry, 0));
            long size = fi_eq_err_entry.err_data_size(errEntry);
            byte[] data = size <= 0 ? new byte[0]
                    : fi_eq_err_entry.err_data(errEntry).reinterpret(size).toArray(ValueLayout.JAVA_BYTE);
            return Optional.of(new Event(ERROR, fi_eq_err_entry.fid(errEntry).address(), MemorySegment.NULL, data,
                    fi_eq_err_entry.err(errEntry)));
        }
        FabricOps.check("fi_eq_read", rc);
        long dataLength = Math.max(0, rc - fi_eq_cm_entry.data$offset());
        byte[] data = entry.asSlice(fi_eq_cm_entry.data$offset(), dataLength).toArray(ValueLayout.JAVA_BYTE);
        int t = type.get(ValueLayout.JAVA_INT, 0);
        MemorySegment info = t == Fabric.FI_CONNREQ() ? fi_eq_cm_entry.info(entry) : MemorySegment.NULL;
        return Optional.of(new Event(t, fi_eq_cm_entry.fid(entry).address(), info, data, 0));
    }

    /**
     * Reads the next event, waiting up to {@code timeout}.
     *
     * @param timeout the longest wait; zero reads once
     * @return the event, or empty on timeout or interrupt (the interrupt status is kept)
     * @throws VerbsException another failure of fi_eq_read
     */
    Optional<Event> read(Duration timeout) {
        long deadline = System.nanoTime() + io.rdma.srq.verbs.spi.EventQueue.toNanos(timeout);
        long pause = 10_000;
        while (true) {
            Optional<Event> e = read();
            if (e.isPresent() || System.nanoTime() - deadline >= 0 || Thread.currentThread().isInterrupted()) {
                return e;
            }
            LockSupport.parkNanos(Math.min(pause, deadline - System.nanoTime()));
            pause = Math.min(pause * 2, MAX_PAUSE_NANOS);
        }
    }
}
