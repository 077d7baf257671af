package io.rdma.srq.verbs;

import io.rdma.srq.api.WcStatus;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_recv_wr;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_sge;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_wc;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The reusable native WR chain and WC array read and write the C structs a driver sees. */
class WorkRequestLayoutTest {

    @Test
    void receiveChainIsLinkedAndTerminatedPerPost() {
        try (ReceiveWorkRequests wrs = new ReceiveWorkRequests(4)) {
            for (int i = 0; i < 4; i++) {
                wrs.set(i, 100 + i, 0x1000L * (i + 1), 64, 7);
            }
            MemorySegment head = wrs.terminate(3).reinterpret(4 * ibv_recv_wr.sizeof());
            int walked = 0;
            MemorySegment wr = head;
            while (wr.address() != 0) {
                MemorySegment w = wr.reinterpret(ibv_recv_wr.sizeof());
                assertEquals(100 + walked, ibv_recv_wr.wr_id(w));
                assertEquals(1, ibv_recv_wr.num_sge(w));
                MemorySegment sge = ibv_recv_wr.sg_list(w).reinterpret(ibv_sge.sizeof());
                assertEquals(0x1000L * (walked + 1), ibv_sge.addr(sge));
                assertEquals(64, ibv_sge.length(sge));
                assertEquals(7, ibv_sge.lkey(sge));
                wr = ibv_recv_wr.next(w);
                walked++;
            }
            assertEquals(3, walked, "a post of 3 sees a chain of 3");
            wrs.relink(3);
            assertEquals(head.address() + 3 * ibv_recv_wr.sizeof(),
                    ibv_recv_wr.next(head.asSlice(2 * ibv_recv_wr.sizeof())).address(), "relinked after the post");
            wrs.badWrCell().set(ValueLayout.ADDRESS, 0, MemorySegment.ofAddress(head.address() + 2 * ibv_recv_wr.sizeof()));
            assertEquals(2, wrs.badWrIndex());
            assertThrows(IllegalArgumentException.class, () -> wrs.terminate(5));
            assertThrows(IllegalArgumentException.class, () -> wrs.terminate(0));
        }
    }

    @Test
    void workCompletionFieldsAreReadFromTheCStruct() {
        try (WorkCompletionArray wcs = new WorkCompletionArray(2)) {
            MemorySegment wc = wcs.segment().asSlice(ibv_wc.sizeof(), ibv_wc.sizeof());
            ibv_wc.wr_id(wc, 42);
            ibv_wc.status(wc, WcStatus.LOC_LEN_ERR.code());
            ibv_wc.opcode(wc, 128);
            ibv_wc.byte_len(wc, 4096);
            ibv_wc.imm_data(wc, Integer.reverseBytes(0x01020304)); // network order on a little-endian host
            ibv_wc.wc_flags(wc, WorkCompletionArray.WITH_IMM);
            ibv_wc.qp_num(wc, 17);
            ibv_wc.src_qp(wc, 18);
            assertEquals(42, wcs.wrId(1));
            assertEquals(WcStatus.LOC_LEN_ERR, wcs.status(1));
            assertFalse(wcs.isSuccess(1));
            assertEquals(128, wcs.opcode(1));
            assertEquals(4096, wcs.byteLen(1));
            assertTrue(wcs.hasImm(1));
            assertEquals(0x01020304, wcs.immData(1), "imm_data in host order");
            assertEquals(17, wcs.qpNum(1));
            assertEquals(18, wcs.srcQp(1));
        }
    }

    @Test
    void useAfterCloseOfNativeArraysThrowsInsteadOfReadingFreedMemory() {
        WorkCompletionArray wcs = new WorkCompletionArray(1);
        ReceiveWorkRequests wrs = new ReceiveWorkRequests(1);
        wcs.close();
        wrs.close();
        wcs.close(); // idempotent
        wrs.close();
        assertThrows(IllegalStateException.class, () -> wcs.wrId(0));
        assertThrows(IllegalStateException.class, () -> wrs.set(0, 1, 2, 3, 4));
    }

    @Test
    void capacitiesOutOfRangeAreRefusedWithTheRange() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new WorkCompletionArray(0));
        assertTrue(e.getMessage().contains("1..65536"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ReceiveWorkRequests(65537));
    }
}
