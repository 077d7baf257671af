package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.api.PortAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_port_attr;
import io.rdma.srq.verbs.ffi.ibverbs.verbs_context;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Needs the rxe lab (a real device): the bindings are generated from rdma-core 44's headers and
 * must stay correct on every newer libibverbs (Debian 13 ships 56, whose {@code struct ibv_port_attr}
 * is 4 bytes longer). This checks, on whatever libibverbs the lab runs, the promise the layout
 * guard ({@code GeneratedLayoutTest}) relies on for structs that grow at the end: a call made with
 * the generated, older size fills exactly that prefix, with the same values a caller built against
 * the installed headers gets, and writes nothing past it.
 *
 * <p>Source: libibverbs/verbs.c {@code __lib_query_port} (a shorter caller buffer gets a copy of the
 * first {@code port_attr_len} bytes of a full-size query), verbs.h {@code ___ibv_query_port} and
 * {@code verbs_get_ctx_op}. Runs with {@code -Dverbs.provider=ibverbs -Dverbs.device=NAME}
 * ({@code it-tests/lab/run-lab.sh} sets both); skipped otherwise.
 */
class AbiCompatibilityLabTest {
    private static final String HOW = "needs a real verbs device: run it-tests/lab/run-lab.sh "
            + "(-Dverbs.provider=ibverbs -Dverbs.device=rxe0)";
    /** Larger than any ibv_port_attr a libibverbs has had: what a binary built on far newer headers passes. */
    private static final int NEWER_SIZE = 256;
    private static final byte CANARY = (byte) 0xA5;

    private IbvContext ctx;

    @BeforeEach
    void open() throws VerbsException {
        assumeTrue(Verbs.IBVERBS.equals(System.getProperty("verbs.provider")), HOW);
        String device = System.getProperty("verbs.device");
        assumeTrue(device != null, HOW);
        Context c = Verbs.provider(Verbs.IBVERBS).open(device);
        ctx = (IbvContext) c;
    }

    @AfterEach
    void close() throws VerbsException {
        if (ctx != null) {
            ctx.close();
        }
    }

    @Test
    void queryPortWithTheGeneratedSizeFillsExactlyThatPrefixWithTheFullSizeValues() throws VerbsException {
        MemorySegment queryPort = ctx.ops().queryPort();
        assertNotNull(queryPort, "verbs_context.query_port: every libibverbs since 1.2 (rdma-core) has it");
        int size = (int) ibv_port_attr.sizeof();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment old = arena.allocate(NEWER_SIZE).fill(CANARY);
            MemorySegment full = arena.allocate(NEWER_SIZE);
            NativeCall.status("ibv_query_port", "generated size", ContextOps.QUERY_PORT, queryPort,
                    ctx.handle(), (byte) 1, old, (long) size);
            NativeCall.status("ibv_query_port", "newer size", ContextOps.QUERY_PORT, queryPort,
                    ctx.handle(), (byte) 1, full, (long) NEWER_SIZE);
            assertArrayEquals(full.asSlice(0, size).toArray(ValueLayout.JAVA_BYTE),
                    old.asSlice(0, size).toArray(ValueLayout.JAVA_BYTE),
                    "the first " + size + " bytes (the generated struct ibv_port_attr) are the same at either size");
            for (int i = size; i < NEWER_SIZE; i++) {
                assertEquals(CANARY, old.get(ValueLayout.JAVA_BYTE, i),
                        "byte " + i + " past the generated size was written: the library ignored port_attr_len");
            }
            assertEquals(ibv_port_attr.state(full), ctx.queryPort(1).state(), "queryPort reads the same state");
            assertTrue(ibv_port_attr.state(old) == PortAttributes.STATE_ACTIVE, "rxe0's port 1 is ACTIVE in the lab");
        }
    }

    @Test
    void theProviderVerbsContextCoversTheOpsOfTheGeneratedOne() {
        long sz = verbs_context.sz(MemorySegment.ofAddress(ctx.handle().address() - verbs_context.context$offset())
                .reinterpret(verbs_context.sizeof()));
        assertTrue(sz >= verbs_context.sizeof() - verbs_context.layout().byteOffset(
                        java.lang.foreign.MemoryLayout.PathElement.groupElement("query_port")),
                "verbs_context.sz " + sz + " of " + ctx.deviceName() + " covers query_port, the first op of "
                        + "rdma-core 44's verbs_context (a newer library's is at least as large)");
    }
}
