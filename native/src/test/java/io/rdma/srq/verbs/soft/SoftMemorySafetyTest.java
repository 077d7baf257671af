package io.rdma.srq.verbs.soft;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.PostReceiveException;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_recv_wr;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * What only the soft device can show about memory safety (driver note 20): it reads a receive WR
 * chain through the segments of its {@link ReceiveWorkRequests} only, so a pointer in the chain that
 * leaves them is refused with EINVAL instead of being followed (a raw read of address 8 or 16 would
 * end the JVM with SIGSEGV), and a chain closed before the post is an exception, not a read. (A send
 * whose MR is deregistered while it waits: {@code SoftProviderTest}.)
 */
class SoftMemorySafetyTest {
    private static final long SG_LIST = ibv_recv_wr.sg_list$offset();
    private static final long NEXT = ibv_recv_wr.next$offset();

    private Context ctx;
    private SharedReceiveQueue srq;
    private MemoryRegion mr;
    private ReceiveWorkRequests chain;

    @BeforeEach
    void open() throws VerbsException {
        ctx = Verbs.provider(Verbs.SOFT).open("soft_rxe0");
        var pd = ctx.allocPd();
        srq = pd.createSrq(new SrqAttributes(16, 1, 0));
        mr = pd.allocateRegistered(4096, EnumSet.of(AccessFlag.LOCAL_WRITE));
        chain = new ReceiveWorkRequests(4);
        for (int i = 0; i < 4; i++) {
            chain.set(i, i, mr.address() + i * 256L, 256, mr.lkey());
        }
    }

    @AfterEach
    void close() throws VerbsException {
        ctx.close();
        chain.close();
    }

    @Test
    void anSgListPointerOutsideTheChainIsRefusedNotFollowed() throws VerbsException {
        MemorySegment wrs = chain.terminate(1);
        wrs.set(ValueLayout.ADDRESS, SG_LIST, MemorySegment.ofAddress(8));
        chain.relink(1);
        PostReceiveException e = assertThrows(PostReceiveException.class, () -> srq.postReceive(chain, 1));
        assertEquals(Errno.EINVAL.name(), e.errnoName());
        assertEquals(0, e.failedIndex());
        assertEquals(0, chain.badWrIndex());
    }

    @Test
    void aNextPointerOutsideTheChainIsRefusedAfterTheWrsBeforeIt() throws VerbsException {
        MemorySegment wrs = chain.terminate(2);
        wrs.set(ValueLayout.ADDRESS, NEXT, MemorySegment.ofAddress(16));
        PostReceiveException e = assertThrows(PostReceiveException.class, () -> srq.postReceive(chain, 2));
        assertEquals(Errno.EINVAL.name(), e.errnoName());
        assertEquals(1, e.failedIndex(), "the first WR is posted, the one at address 16 refused");
        assertEquals(16, chain.badWrCell().get(ValueLayout.ADDRESS, 0).address());
    }

    @Test
    void aChainClosedBeforeThePostIsAnExceptionNotARead() {
        chain.close();
        assertThrows(IllegalStateException.class, () -> srq.postReceive(chain, 1));
    }
}
