package io.rdma.srq.verbs.fabric;

import io.rdma.srq.verbs.ffi.fabric.Fabric;
import io.rdma.srq.verbs.ffi.fabric.fi_cq_attr;
import io.rdma.srq.verbs.ffi.fabric.fi_cq_data_entry;
import io.rdma.srq.verbs.ffi.fabric.fi_ep_attr;
import io.rdma.srq.verbs.ffi.fabric.fi_eq_attr;
import io.rdma.srq.verbs.ffi.fabric.fi_eq_cm_entry;
import io.rdma.srq.verbs.ffi.fabric.fi_fabric_attr;
import io.rdma.srq.verbs.ffi.fabric.fi_info;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What the libfabric provider is built on, proven through the generated binding and
 * {@link FabricOps} against the installed libfabric (1.17 on Debian 12, 2.1 on Debian 13): the
 * {@code tcp} provider's MSG endpoints, accepted from one passive endpoint with connection-request
 * private data both ways, take their receives from <b>one shared receive context</b> (fi_srx_context,
 * fi_endpoint(3); fi_tcp(7)) — the SRQ of the verbs nouns — and deliver the sender's 8 bytes of
 * remote CQ data (FI_REMOTE_CQ_DATA, fi_cq(3): the imm_data of the verbs nouns); a client that
 * closes its endpoint is an FI_SHUTDOWN on the listener's EQ (fi_cm(3)). Two clients, each with its
 * own fabric and domain as a second process would have, send into one srx on 127.0.0.1.
 */
class LibfabricSharedReceiveContextTest {
    private static final int API = (1 << 16) | 17; // FI_VERSION(1, 17): the oldest supported, Debian 12
    private static final int MESSAGES = 20;
    private static final int SIZE = 64;
    private static final long WAIT_NANOS = 10_000_000_000L;

    private final Arena arena = Arena.ofConfined();
    /** Objects to fi_close, last opened first. */
    private final Deque<MemorySegment> opened = new ArrayDeque<>();
    private final List<MemorySegment> infos = new ArrayList<>();

    @BeforeEach
    void libfabricInstalled() {
        assumeTrue(FabricLibrary.load(), "libfabric.so.1 is not installed (Debian package libfabric1)");
    }

    @AfterEach
    void closeAll() {
        while (!opened.isEmpty()) {
            FabricOps.close(opened.pop());
        }
        infos.forEach(Fabric::fi_freeinfo);
        arena.close();
    }

    /** fi_getinfo(3) for a tcp MSG endpoint at 127.0.0.1:{@code service}; {@code flags} FI_SOURCE to listen. */
    private MemorySegment tcpInfo(String service, long flags) {
        MemorySegment hints = Fabric.fi_dupinfo(MemorySegment.NULL).reinterpret(fi_info.sizeof());
        MemorySegment epAttr = fi_info.ep_attr(hints).reinterpret(fi_ep_attr.sizeof());
        fi_ep_attr.type(epAttr, Fabric.FI_EP_MSG());
        fi_info.caps(hints, Fabric.FI_MSG());
        MemorySegment fabricAttr = fi_info.fabric_attr(hints).reinterpret(fi_fabric_attr.sizeof());
        fi_fabric_attr.prov_name(fabricAttr, arena.allocateFrom("tcp"));
        MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
        int rc = Fabric.fi_getinfo(API, arena.allocateFrom("127.0.0.1"), arena.allocateFrom(service), flags, hints, out);
        fi_fabric_attr.prov_name(fabricAttr, MemorySegment.NULL); // ours, not malloc'd: fi_freeinfo must not free it
        Fabric.fi_freeinfo(hints);
        assumeTrue(rc != -Fabric.FI_ENODATA(), "libfabric has no tcp provider with MSG endpoints here");
        FabricOps.check("fi_getinfo", rc);
        MemorySegment info = out.get(ValueLayout.ADDRESS, 0).reinterpret(fi_info.sizeof());
        infos.add(info);
        return info;
    }

    private MemorySegment open(String what, java.util.function.Function<MemorySegment, Integer> call) {
        MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
        FabricOps.check(what, call.apply(out));
        MemorySegment object = out.get(ValueLayout.ADDRESS, 0);
        opened.push(object);
        return object;
    }

    private MemorySegment eq(MemorySegment fabric) {
        MemorySegment attr = arena.allocate(fi_eq_attr.layout()); // FI_WAIT_NONE, default size
        return open("fi_eq_open", out -> FabricOps.eqOpen(fabric, attr, out, MemorySegment.NULL));
    }

    private MemorySegment cq(MemorySegment domain) {
        MemorySegment attr = arena.allocate(fi_cq_attr.layout());
        fi_cq_attr.format(attr, Fabric.FI_CQ_FORMAT_DATA());
        fi_cq_attr.size(attr, 256);
        return open("fi_cq_open", out -> FabricOps.cqOpen(domain, attr, out, MemorySegment.NULL));
    }

    /** One event read from {@code eq} without waiting: its type, the fid it names, its private data; null if none. */
    private record CmEvent(int type, MemorySegment fid, MemorySegment info, byte[] data) {
    }

    private CmEvent readEvent(MemorySegment eq) {
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

    private static void await(BooleanSupplier progress, String what) {
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (!progress.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.onSpinWait();
        }
    }

    /** A client process: its own fabric, domain, EQ, CQ and one endpoint connecting with private data. */
    private final class Client {
        final MemorySegment eq;
        final MemorySegment cq;
        final MemorySegment ep;
        byte[] accepted;

        Client(int port, String hello) {
            MemorySegment info = tcpInfo(String.valueOf(port), 0);
            MemorySegment fabric = open("fi_fabric", out -> Fabric.fi_fabric(fi_info.fabric_attr(info), out,
                    MemorySegment.NULL));
            eq = eq(fabric);
            MemorySegment domain = open("fi_domain", out -> FabricOps.domain(fabric, info, out, MemorySegment.NULL));
            cq = cq(domain);
            ep = open("fi_endpoint", out -> FabricOps.endpoint(domain, info, out, MemorySegment.NULL));
            FabricOps.check("fi_ep_bind eq", FabricOps.bind(ep, eq, 0));
            FabricOps.check("fi_ep_bind cq", FabricOps.bind(ep, cq, Fabric.FI_TRANSMIT() | Fabric.FI_RECV()));
            FabricOps.check("fi_enable", FabricOps.enable(ep));
            MemorySegment param = arena.allocateFrom(hello);
            FabricOps.check("fi_connect", FabricOps.connect(ep, fi_info.dest_addr(info), param, param.byteSize()));
        }

        boolean connected() {
            CmEvent e = readEvent(eq);
            if (e != null && e.type() == Fabric.FI_CONNECTED()) {
                accepted = e.data();
            }
            return accepted != null;
        }

        int sendsCompleted;

        void send(int n, long cqData) {
            MemorySegment buf = arena.allocate(SIZE);
            buf.fill((byte) n);
            long rc;
            while ((rc = FabricOps.senddata(ep, buf, SIZE, MemorySegment.NULL, cqData, 0, MemorySegment.NULL))
                    == -Fabric.FI_EAGAIN()) {
                reapSends();
            }
            FabricOps.check("fi_senddata", rc);
        }

        void reapSends() {
            MemorySegment entries = arena.allocate(fi_cq_data_entry.layout(), 16);
            long n = FabricOps.cqRead(cq, entries, 16);
            if (n != -Fabric.FI_EAGAIN()) {
                sendsCompleted += (int) FabricOps.check("fi_cq_read", n);
            }
        }
    }

    @Test
    void twoClientsMessagesLandInOneSharedReceiveContextWithTheirCqDataAndAShutdownIsSeen() {
        // the listener: fabric, EQ, passive endpoint; a domain with one srx and one CQ for every accepted endpoint
        MemorySegment info = tcpInfo("0", Fabric.FI_SOURCE());
        MemorySegment fabric = open("fi_fabric", out -> Fabric.fi_fabric(fi_info.fabric_attr(info), out,
                MemorySegment.NULL));
        MemorySegment eq = eq(fabric);
        MemorySegment pep = open("fi_passive_ep", out -> FabricOps.passiveEp(fabric, info, out, MemorySegment.NULL));
        FabricOps.check("fi_pep_bind", FabricOps.bind(pep, eq, 0));
        FabricOps.check("fi_listen", FabricOps.listen(pep));
        MemorySegment addr = arena.allocate(128);
        MemorySegment addrlen = arena.allocate(ValueLayout.JAVA_LONG);
        addrlen.set(ValueLayout.JAVA_LONG, 0, 128);
        FabricOps.check("fi_getname", FabricOps.getnamePassive(pep, addr, addrlen));
        int port = Short.toUnsignedInt(Short.reverseBytes(addr.get(ValueLayout.JAVA_SHORT, 2))); // sockaddr_in.sin_port
        assertTrue(port > 0, "the listener's port");

        MemorySegment domain = open("fi_domain", out -> FabricOps.domain(fabric, info, out, MemorySegment.NULL));
        MemorySegment srx = open("fi_srx_context", out -> FabricOps.srxContext(domain, fi_info.rx_attr(info), out,
                MemorySegment.NULL));
        MemorySegment cq = cq(domain);
        int buffers = 2 * MESSAGES;
        MemorySegment slab = arena.allocate((long) buffers * SIZE, 64);
        for (int i = 0; i < buffers; i++) {
            FabricOps.check("fi_recv", FabricOps.recv(srx, slab.asSlice((long) i * SIZE, SIZE), SIZE,
                    MemorySegment.NULL, Fabric.FI_ADDR_UNSPEC(), MemorySegment.ofAddress(i + 1)));
        }

        Client one = new Client(port, "hello-1");
        Client two = new Client(port, "hello-2");
        Map<String, MemorySegment> accepted = new HashMap<>();
        List<MemorySegment> serverEps = new ArrayList<>();
        int[] connected = {0};
        List<Integer> shutdowns = new ArrayList<>();
        Map<Long, MemorySegment> byFid = new HashMap<>();
        Runnable serverEvents = () -> {
            CmEvent e = readEvent(eq);
            if (e == null) {
                return;
            }
            if (e.type() == Fabric.FI_CONNREQ()) {
                String hello = new String(e.data(), StandardCharsets.US_ASCII).replace("\0", "");
                MemorySegment reqInfo = e.info().reinterpret(fi_info.sizeof());
                infos.add(reqInfo);
                fi_ep_attr.rx_ctx_cnt(fi_info.ep_attr(reqInfo).reinterpret(fi_ep_attr.sizeof()),
                        Fabric.FI_SHARED_CONTEXT());
                MemorySegment ep = open("fi_endpoint", out -> FabricOps.endpoint(domain, reqInfo, out,
                        MemorySegment.NULL));
                FabricOps.check("fi_ep_bind eq", FabricOps.bind(ep, eq, 0));
                FabricOps.check("fi_ep_bind cq", FabricOps.bind(ep, cq, Fabric.FI_TRANSMIT() | Fabric.FI_RECV()));
                FabricOps.check("fi_ep_bind srx", FabricOps.bind(ep, srx, 0));
                FabricOps.check("fi_enable", FabricOps.enable(ep));
                MemorySegment answer = arena.allocateFrom("welcome-" + hello);
                FabricOps.check("fi_accept", FabricOps.accept(ep, answer, answer.byteSize()));
                accepted.put(hello, ep);
                serverEps.add(ep);
                byFid.put(ep.address(), ep);
            } else if (e.type() == Fabric.FI_CONNECTED()) {
                connected[0]++;
            } else if (e.type() == Fabric.FI_SHUTDOWN()) {
                shutdowns.add(serverEps.indexOf(byFid.get(e.fid().address())));
            }
        };
        await(() -> {
            serverEvents.run();
            return connected[0] == 2 & one.connected() & two.connected();
        }, "both clients connected");
        assertEquals("welcome-hello-1", new String(one.accepted, StandardCharsets.US_ASCII).replace("\0", ""));
        assertEquals("welcome-hello-2", new String(two.accepted, StandardCharsets.US_ASCII).replace("\0", ""));

        for (int i = 0; i < MESSAGES; i++) {
            one.send(1, 0x1_0000_0000L + i);
            two.send(2, 0x2_0000_0000L + i);
        }
        Map<Long, Integer> received = new HashMap<>();
        MemorySegment entries = arena.allocate(fi_cq_data_entry.layout(), 16);
        await(() -> {
            one.reapSends();
            two.reapSends();
            long n = FabricOps.cqRead(cq, entries, 16);
            if (n == -Fabric.FI_EAGAIN()) {
                return false;
            }
            FabricOps.check("fi_cq_read", n);
            for (int k = 0; k < n; k++) {
                MemorySegment entry = entries.asSlice(k * fi_cq_data_entry.sizeof(), fi_cq_data_entry.sizeof());
                assertTrue((fi_cq_data_entry.flags(entry) & Fabric.FI_REMOTE_CQ_DATA()) != 0, "FI_REMOTE_CQ_DATA set");
                assertTrue((fi_cq_data_entry.flags(entry) & Fabric.FI_RECV()) != 0, "a receive completion");
                assertEquals(SIZE, fi_cq_data_entry.len(entry));
                int buffer = (int) fi_cq_data_entry.op_context(entry).address() - 1;
                long data = fi_cq_data_entry.data(entry);
                byte sender = slab.get(ValueLayout.JAVA_BYTE, (long) buffer * SIZE);
                assertEquals(data >>> 32, sender, "the payload and the CQ data are the same sender's");
                assertEquals(null, received.put(data, buffer), "each message once");
            }
            return received.size() == 2 * MESSAGES;
        }, "40 receives from the one srx");
        await(() -> {
            one.reapSends();
            two.reapSends();
            return one.sendsCompleted == MESSAGES && two.sendsCompleted == MESSAGES;
        }, "the sends completed");
        for (int i = 0; i < MESSAGES; i++) {
            assertTrue(received.containsKey(0x1_0000_0000L + i) && received.containsKey(0x2_0000_0000L + i),
                    "message " + i + " of both clients");
        }

        FabricOps.check("fi_close", FabricOps.close(two.ep));
        opened.remove(two.ep);
        await(() -> {
            FabricOps.cqRead(cq, entries, 16); // the listener's progress: tcp sees the hang-up while it polls
            serverEvents.run();
            return !shutdowns.isEmpty();
        }, "FI_SHUTDOWN of the closed client's endpoint");
        assertEquals(List.of(serverEps.indexOf(accepted.get("hello-2"))), shutdowns,
                "the shutdown names the endpoint of the client that closed, not the other");
    }
}
