package io.rdma.srq.verbs.fabric;

import io.rdma.srq.verbs.ffi.fabric.Fabric;
import io.rdma.srq.verbs.ffi.fabric.fi_cq_attr;
import io.rdma.srq.verbs.ffi.fabric.fi_cq_data_entry;
import io.rdma.srq.verbs.ffi.fabric.fi_ep_attr;
import io.rdma.srq.verbs.ffi.fabric.fi_eq_attr;
import io.rdma.srq.verbs.ffi.fabric.fi_eq_cm_entry;
import io.rdma.srq.verbs.ffi.fabric.fi_fabric_attr;
import io.rdma.srq.verbs.ffi.fabric.fi_info;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * libfabric objects for the tests of what the fabric provider stands on, made through the
 * generated binding and {@link FabricOps} only: a tcp {@link Listener} (passive endpoint, one
 * shared receive context, one CQ for every accepted endpoint) and a {@link Client} (its own
 * fabric, domain, EQ and CQ, as another process would have). Everything opened is closed, last
 * opened first, by {@link #close()}. One thread at a time.
 */
final class FabricTestKit implements AutoCloseable {
    /** FI_VERSION(1, 17): the oldest supported API, Debian 12's. */
    static final int API = (1 << 16) | 17;
    static final long WAIT_NANOS = 10_000_000_000L;

    private final Arena arena = Arena.ofConfined();
    private final Deque<MemorySegment> opened = new ArrayDeque<>();
    private final List<MemorySegment> infos = new ArrayList<>();

    @Override
    public void close() {
        while (!opened.isEmpty()) {
            FabricOps.close(opened.pop());
        }
        infos.forEach(Fabric::fi_freeinfo);
        arena.close();
    }

    /** An event read from an EQ: its type, the fid it names, the connection request's info, its private data. */
    record CmEvent(int type, MemorySegment fid, MemorySegment info, byte[] data) {
        String text() {
            return new String(data, StandardCharsets.US_ASCII).replace("\0", "");
        }
    }

    /**
     * fi_getinfo(3) for a tcp MSG endpoint at 127.0.0.1:{@code service}.
     *
     * @param service the port, "0" for any
     * @param flags   FI_SOURCE to listen, else 0
     * @return the first fi_info, or null when libfabric has no tcp MSG endpoint (FI_ENODATA)
     */
    MemorySegment tcpInfo(String service, long flags) {
        MemorySegment hints = Fabric.fi_dupinfo(MemorySegment.NULL).reinterpret(fi_info.sizeof());
        fi_ep_attr.type(fi_info.ep_attr(hints).reinterpret(fi_ep_attr.sizeof()), Fabric.FI_EP_MSG());
        fi_info.caps(hints, Fabric.FI_MSG());
        MemorySegment fabricAttr = fi_info.fabric_attr(hints).reinterpret(fi_fabric_attr.sizeof());
        fi_fabric_attr.prov_name(fabricAttr, arena.allocateFrom("tcp"));
        MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
        int rc = Fabric.fi_getinfo(API, arena.allocateFrom("127.0.0.1"), arena.allocateFrom(service), flags, hints, out);
        fi_fabric_attr.prov_name(fabricAttr, MemorySegment.NULL); // ours, not malloc'd: fi_freeinfo must not free it
        Fabric.fi_freeinfo(hints);
        if (rc == -Fabric.FI_ENODATA()) {
            return null;
        }
        FabricOps.check("fi_getinfo", rc);
        MemorySegment info = out.get(ValueLayout.ADDRESS, 0).reinterpret(fi_info.sizeof());
        infos.add(info);
        return info;
    }

    /** Opens an object through {@code call} (given the out-pointer), keeping it to close. */
    MemorySegment open(String what, Function<MemorySegment, Integer> call) {
        MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
        FabricOps.check(what, call.apply(out));
        MemorySegment object = out.get(ValueLayout.ADDRESS, 0);
        opened.push(object);
        return object;
    }

    /** Closes one object now (fi_close) instead of at {@link #close()}. */
    void closeNow(MemorySegment object) {
        opened.remove(object);
        FabricOps.check("fi_close", FabricOps.close(object));
    }

    MemorySegment fabric(MemorySegment info) {
        return open("fi_fabric", out -> Fabric.fi_fabric(fi_info.fabric_attr(info), out, MemorySegment.NULL));
    }

    MemorySegment eq(MemorySegment fabric) {
        MemorySegment attr = arena.allocate(fi_eq_attr.layout()); // FI_WAIT_NONE, the default size
        return open("fi_eq_open", out -> FabricOps.eqOpen(fabric, attr, out, MemorySegment.NULL));
    }

    MemorySegment domain(MemorySegment fabric, MemorySegment info) {
        return open("fi_domain", out -> FabricOps.domain(fabric, info, out, MemorySegment.NULL));
    }

    MemorySegment cq(MemorySegment domain) {
        MemorySegment attr = arena.allocate(fi_cq_attr.layout());
        fi_cq_attr.format(attr, Fabric.FI_CQ_FORMAT_DATA());
        fi_cq_attr.size(attr, 1024);
        return open("fi_cq_open", out -> FabricOps.cqOpen(domain, attr, out, MemorySegment.NULL));
    }

    /** One event from {@code eq} without waiting; null when there is none (FI_EAGAIN). */
    CmEvent readEvent(MemorySegment eq) {
        MemorySegment type = arena.allocate(ValueLayout.JAVA_INT);
        MemorySegment entry = arena.allocate(fi_eq_cm_entry.sizeof() + 256, 8);
        long rc = FabricOps.eqRead(eq, type, entry, entry.byteSize(), 0);
        if (rc == -Fabric.FI_EAGAIN()) {
            return null;
        }
        FabricOps.check("fi_eq_read", rc);
        long dataLength = Math.max(0, rc - fi_eq_cm_entry.data$offset());
        byte[] data = entry.asSlice(fi_eq_cm_entry.data$offset(), dataLength).toArray(ValueLayout.JAVA_BYTE);
        return new CmEvent(type.get(ValueLayout.JAVA_INT, 0), fi_eq_cm_entry.fid(entry), fi_eq_cm_entry.info(entry),
                data);
    }

    /** Spins on {@code progress} until it is true, at most {@link #WAIT_NANOS}. */
    static void await(BooleanSupplier progress, String what) {
        await(progress, what, WAIT_NANOS);
    }

    /** Spins on {@code progress} until it is true, at most {@code nanos}. */
    static void await(BooleanSupplier progress, String what, long nanos) {
        long deadline = System.nanoTime() + nanos;
        while (!progress.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.onSpinWait();
        }
    }

    /**
     * A received message: the buffer it landed in, its CQ data, its first byte, its length, and the
     * endpoint whose CQ reported it (its connect request's private data; null with one shared CQ).
     */
    record Received(int buffer, long cqData, byte first, long length, String endpoint) {
    }

    /**
     * The receiving side: a passive endpoint on 127.0.0.1 (any port) and one shared receive
     * context; either one CQ that every accepted endpoint reports to, or (cqPerEndpoint) a CQ per
     * endpoint, all in one poll set (fi_poll(3)) that tells which have completions.
     */
    final class Listener {
        final int port;
        final MemorySegment eq;
        final MemorySegment srx;
        final MemorySegment cq;
        final int bufferSize;
        private final MemorySegment domain;
        private final MemorySegment slab;
        private final MemorySegment entries;
        /** cqPerEndpoint: the poll set, and the endpoints in the order their CQs were opened. */
        private final MemorySegment pollset;
        private final List<String> endpointOfCq = new ArrayList<>();
        private final List<MemorySegment> cqs = new ArrayList<>();
        /** Accepted endpoints by the private data their connect request carried. */
        final Map<String, MemorySegment> accepted = new HashMap<>();
        /** The private data of the endpoints whose FI_SHUTDOWN was seen, in order. */
        final List<String> shutdowns = new ArrayList<>();
        int connected;

        Listener(int buffers, int bufferSize) {
            this(buffers, bufferSize, false);
        }

        Listener(int buffers, int bufferSize, boolean cqPerEndpoint) {
            this.bufferSize = bufferSize;
            MemorySegment info = tcpInfo("0", Fabric.FI_SOURCE());
            MemorySegment fabric = fabric(info);
            eq = eq(fabric);
            MemorySegment pep = open("fi_passive_ep", out -> FabricOps.passiveEp(fabric, info, out, MemorySegment.NULL));
            FabricOps.check("fi_pep_bind", FabricOps.bind(pep, eq, 0));
            FabricOps.check("fi_listen", FabricOps.listen(pep));
            MemorySegment addr = arena.allocate(128);
            MemorySegment addrlen = arena.allocate(ValueLayout.JAVA_LONG);
            addrlen.set(ValueLayout.JAVA_LONG, 0, 128);
            FabricOps.check("fi_getname", FabricOps.getnamePassive(pep, addr, addrlen));
            port = Short.toUnsignedInt(Short.reverseBytes(addr.get(ValueLayout.JAVA_SHORT, 2))); // sin_port
            domain = domain(fabric, info);
            srx = open("fi_srx_context", out -> FabricOps.srxContext(domain, fi_info.rx_attr(info), out,
                    MemorySegment.NULL));
            if (cqPerEndpoint) {
                MemorySegment attr = arena.allocate(io.rdma.srq.verbs.ffi.fabric.fi_poll_attr.layout());
                pollset = open("fi_poll_open", out -> FabricOps.pollOpen(domain, attr, out));
                cq = null;
            } else {
                pollset = null;
                cq = cq(domain);
            }
            slab = arena.allocate((long) buffers * bufferSize, 64);
            entries = arena.allocate(fi_cq_data_entry.layout(), 32);
        }

        /** Posts receive buffer {@code buffer} to the srx (fi_recv; op_context = buffer + 1). */
        void post(int buffer) {
            FabricOps.check("fi_recv", FabricOps.recv(srx, slab.asSlice((long) buffer * bufferSize, bufferSize),
                    bufferSize, MemorySegment.NULL, Fabric.FI_ADDR_UNSPEC(), MemorySegment.ofAddress(buffer + 1)));
        }

        /** Reads the EQ once: accepts a connect request on the srx (answering "welcome-" + its data), counts the rest. */
        void events() {
            CmEvent e = readEvent(eq);
            if (e == null) {
                return;
            }
            if (e.type() == Fabric.FI_CONNREQ()) {
                MemorySegment request = e.info().reinterpret(fi_info.sizeof());
                infos.add(request);
                fi_ep_attr.rx_ctx_cnt(fi_info.ep_attr(request).reinterpret(fi_ep_attr.sizeof()),
                        Fabric.FI_SHARED_CONTEXT());
                MemorySegment ep = open("fi_endpoint", out -> FabricOps.endpoint(domain, request, out,
                        MemorySegment.NULL));
                FabricOps.check("fi_ep_bind eq", FabricOps.bind(ep, eq, 0));
                MemorySegment epCq = cq;
                if (pollset != null) {
                    MemorySegment context = MemorySegment.ofAddress(cqs.size() + 1);
                    MemorySegment attr = arena.allocate(fi_cq_attr.layout());
                    fi_cq_attr.format(attr, Fabric.FI_CQ_FORMAT_DATA());
                    fi_cq_attr.size(attr, 1024);
                    epCq = open("fi_cq_open", out -> FabricOps.cqOpen(domain, attr, out, context));
                    FabricOps.check("fi_poll_add", FabricOps.pollAdd(pollset, epCq, 0));
                    cqs.add(epCq);
                    endpointOfCq.add(e.text());
                }
                FabricOps.check("fi_ep_bind cq", FabricOps.bind(ep, epCq, Fabric.FI_TRANSMIT() | Fabric.FI_RECV()));
                FabricOps.check("fi_ep_bind srx", FabricOps.bind(ep, srx, 0));
                FabricOps.check("fi_enable", FabricOps.enable(ep));
                MemorySegment answer = arena.allocateFrom("welcome-" + e.text());
                FabricOps.check("fi_accept", FabricOps.accept(ep, answer, answer.byteSize()));
                accepted.put(e.text(), ep);
            } else if (e.type() == Fabric.FI_CONNECTED()) {
                connected++;
            } else if (e.type() == Fabric.FI_SHUTDOWN()) {
                accepted.forEach((hello, ep) -> {
                    if (ep.address() == e.fid().address()) {
                        shutdowns.add(hello);
                    }
                });
            }
        }

        /**
         * Reads the CQ once (which also makes the tcp provider progress its connections).
         *
         * @return the receives completed, each checked to be a receive with remote CQ data
         */
        List<Received> receive() {
            if (pollset == null) {
                return read(cq, null);
            }
            MemorySegment contexts = arena.allocate(ValueLayout.ADDRESS, 16);
            int ready = (int) FabricOps.check("fi_poll", FabricOps.poll(pollset, contexts, 16));
            List<Received> got = new ArrayList<>();
            for (int i = 0; i < ready; i++) {
                int index = (int) contexts.getAtIndex(ValueLayout.ADDRESS, i).address() - 1;
                got.addAll(read(cqs.get(index), endpointOfCq.get(index)));
            }
            return got;
        }

        private List<Received> read(MemorySegment from, String endpoint) {
            long n = FabricOps.cqRead(from, entries, 32);
            if (n == -Fabric.FI_EAGAIN()) {
                return List.of();
            }
            FabricOps.check("fi_cq_read", n);
            List<Received> got = new ArrayList<>();
            for (int k = 0; k < n; k++) {
                MemorySegment entry = entries.asSlice(k * fi_cq_data_entry.sizeof(), fi_cq_data_entry.sizeof());
                long flags = fi_cq_data_entry.flags(entry);
                if ((flags & Fabric.FI_RECV()) == 0 || (flags & Fabric.FI_REMOTE_CQ_DATA()) == 0) {
                    throw new AssertionError("not a receive with remote CQ data: flags 0x" + Long.toHexString(flags));
                }
                int buffer = (int) fi_cq_data_entry.op_context(entry).address() - 1;
                got.add(new Received(buffer, fi_cq_data_entry.data(entry),
                        slab.get(ValueLayout.JAVA_BYTE, (long) buffer * bufferSize), fi_cq_data_entry.len(entry),
                        endpoint));
            }
            return got;
        }
    }

    /** A client: its own fabric, domain, EQ, CQ and one endpoint that connects with private data. */
    final class Client {
        final MemorySegment ep;
        private final MemorySegment eq;
        private final MemorySegment cq;
        private final MemorySegment sendEntries;
        byte[] welcome;
        int sendsCompleted;

        Client(int port, String hello) {
            MemorySegment info = tcpInfo(String.valueOf(port), 0);
            MemorySegment fabric = fabric(info);
            eq = eq(fabric);
            MemorySegment domain = domain(fabric, info);
            cq = cq(domain);
            ep = open("fi_endpoint", out -> FabricOps.endpoint(domain, info, out, MemorySegment.NULL));
            FabricOps.check("fi_ep_bind eq", FabricOps.bind(ep, eq, 0));
            FabricOps.check("fi_ep_bind cq", FabricOps.bind(ep, cq, Fabric.FI_TRANSMIT() | Fabric.FI_RECV()));
            FabricOps.check("fi_enable", FabricOps.enable(ep));
            MemorySegment param = arena.allocateFrom(hello);
            FabricOps.check("fi_connect", FabricOps.connect(ep, fi_info.dest_addr(info), param, param.byteSize()));
            sendEntries = arena.allocate(fi_cq_data_entry.layout(), 32);
        }

        /** Reads the EQ once; {@return whether FI_CONNECTED arrived (its private data in {@link #welcome})} */
        boolean connected() {
            CmEvent e = readEvent(eq);
            if (e != null && e.type() == Fabric.FI_CONNECTED()) {
                welcome = e.data();
            }
            return welcome != null;
        }

        /** fi_senddata of {@code size} bytes of {@code fill} with {@code cqData}; retried on FI_EAGAIN. */
        void send(byte fill, int size, long cqData) {
            MemorySegment buf = arena.allocate(size);
            buf.fill(fill);
            long rc;
            while ((rc = FabricOps.senddata(ep, buf, size, MemorySegment.NULL, cqData, 0, MemorySegment.NULL))
                    == -Fabric.FI_EAGAIN()) {
                reapSends();
            }
            FabricOps.check("fi_senddata", rc);
        }

        /** Reads the send completions there are, into {@link #sendsCompleted}. */
        void reapSends() {
            long n = FabricOps.cqRead(cq, sendEntries, 32);
            if (n != -Fabric.FI_EAGAIN()) {
                sendsCompleted += (int) FabricOps.check("fi_cq_read", n);
            }
        }
    }
}
