package io.rdma.srq.verbs.soft;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.api.WcStatus;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.PostReceiveException;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.WorkCompletionArray;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_recv_wr;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What only the soft device can show about memory safety (driver note 20): it reads a receive WR
 * chain through the segments of its {@link ReceiveWorkRequests} only, so a pointer in the chain that
 * leaves them is refused with EINVAL instead of being followed (a raw read of address 8 or 16 would
 * end the JVM with SIGSEGV), and a send whose MR is deregistered while it waits for a receive (RNR)
 * completes with an error when it is retried, as rxe's requester finds the stale lkey on the retry.
 */
class SoftMemorySafetyTest {
    private static final long SG_LIST = ibv_recv_wr.sg_list$offset();
    private static final long NEXT = ibv_recv_wr.next$offset();
    private static final long WR = ibv_recv_wr.sizeof();

    private Context ctx;
    private ProtectionDomain pd;
    private SharedReceiveQueue srq;
    private MemoryRegion mr;
    private ReceiveWorkRequests chain;
    private WorkCompletionArray wcs;

    @BeforeEach
    void open() throws VerbsException {
        ctx = Verbs.provider(Verbs.SOFT).open("soft_rxe0");
        pd = ctx.allocPd();
        srq = pd.createSrq(new SrqAttributes(16, 1, 0));
        mr = pd.allocateRegistered(4096, EnumSet.of(AccessFlag.LOCAL_WRITE));
        chain = new ReceiveWorkRequests(4);
        wcs = new WorkCompletionArray(4);
        for (int i = 0; i < 4; i++) {
            chain.set(i, i, mr.address() + i * 256L, 256, mr.lkey());
        }
    }

    @AfterEach
    void close() throws VerbsException {
        ctx.close();
        chain.close();
        wcs.close();
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

    @Test
    void aWaitingSendWhoseMrIsDeregisteredFailsOnTheRetry() throws Exception {
        CompletionQueue cqA = ctx.createCq(16, null);
        CompletionQueue cqB = ctx.createCq(16, null);
        QueuePair a = pd.createQp(QpInitAttributes.rcOnSrq(cqA, srq, 8));
        QueuePair b = pd.createQp(QpInitAttributes.rcOnSrq(cqB, srq, 8));
        a.connect(1, 0, b.localEndpoint(1, 0));
        b.connect(1, 0, a.localEndpoint(1, 0));
        MemoryRegion from = pd.allocateRegistered(64, EnumSet.of(AccessFlag.LOCAL_WRITE));
        a.postSend(9, from, 0, 64, null); // no receive posted: the send waits (RNR, rnr_retry 7)
        assertEquals(0, cqA.poll(wcs), "the send must wait for a receive");
        from.close();
        srq.postReceive(chain, 1);
        assertEquals(WcStatus.LOC_QP_OP_ERR, pollOne(cqA), "rxe's status for a stale lkey (driver note 20)");
        assertEquals(0, cqB.poll(wcs), "the message never left: the receive was not consumed");
    }

    private WcStatus pollOne(CompletionQueue cq) throws VerbsException, InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (cq.poll(wcs) == 1) {
                return wcs.status(0);
            }
            Thread.sleep(1);
        }
        fail("no completion within 10 s");
        return null;
    }
}
