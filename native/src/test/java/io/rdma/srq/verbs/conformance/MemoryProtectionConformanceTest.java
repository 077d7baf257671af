package io.rdma.srq.verbs.conformance;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.api.WcStatus;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QueuePair;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Memory protection of SGEs (driver note 20): a receive SGE must name, by its lkey, a valid MR of the
 * receiving QP's PD with IBV_ACCESS_LOCAL_WRITE, and [addr, addr + length) must lie inside it
 * (ibv_reg_mr(3), ibv_post_srq_recv(3); kernel rxe_mr.c {@code lookup_mr}, {@code mr_check_range});
 * a send SGE must name a valid MR of the sending QP's PD. Nothing is checked at post time; the WR that
 * breaks a rule completes with an error, the QPs go to ERROR, and not one byte is written outside
 * the registered memory — each case registers the middle page of three and checks that the pages
 * around it (and the page itself) still hold their sentinel bytes.
 *
 * <p>Statuses by driver: rxe (rxe_resp.c RESPST_ERR_MALFORMED_WQE; rxe_req.c finish_packet) gives the
 * receive {@code LOC_QP_OP_ERR} and a send from a deregistered or foreign MR {@code LOC_QP_OP_ERR};
 * mlx5 reports both as {@code LOC_PROT_ERR} (CQE syndrome LOCAL_PROT_ERR). The sender of a message
 * whose receive was refused gets {@code REM_OP_ERR} (the responder's NAK) on both.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.rdma.srq.verbs.conformance.VerbsTarget#targets")
class MemoryProtectionConformanceTest extends ConformanceBase {
    private static final long PAGE = 4096;
    private static final int MESSAGE = 64;
    private static final int RECEIVE = 256;
    private static final byte SENTINEL = 0x5A;
    private static final long RECV_WR = 77;
    private static final long SEND_WR = 5;
    private static final long FLUSHED_WR = 6;

    MemoryProtectionConformanceTest(VerbsTarget target) {
        super(target);
    }

    /** Three pages of memory; the middle one registered, all three filled with {@link #SENTINEL}. */
    private final class Guarded {
        final MemorySegment all = arena().allocate(3 * PAGE, PAGE);
        final MemorySegment inside = all.asSlice(PAGE, PAGE);
        final MemoryRegion mr;

        Guarded(ProtectionDomain pd, Set<AccessFlag> access) throws VerbsException {
            all.fill(SENTINEL);
            mr = pd.registerMemory(inside, access);
        }

        long start() {
            return inside.address();
        }

        /** Fails naming the first byte that no longer holds the sentinel. */
        void assertUntouched(long from, long to) {
            for (long i = from; i < to; i++) {
                if (all.get(ValueLayout.JAVA_BYTE, i) != SENTINEL) {
                    fail("byte " + (i - PAGE) + " relative to the MR's start was written on " + target);
                }
            }
        }

        void assertUntouched() {
            assertUntouched(0, all.byteSize());
        }
    }

    private WcStatus receiveRefused() {
        return driver == Driver.RXE ? WcStatus.LOC_QP_OP_ERR : WcStatus.LOC_PROT_ERR;
    }

    private WcStatus sendRefused() {
        return driver == Driver.RXE ? WcStatus.LOC_QP_OP_ERR : WcStatus.LOC_PROT_ERR;
    }

    /**
     * Posts one receive with the SGE given, lets A send a message into it, and checks the outcome:
     * the receive completes with the driver's protection status, the send with REM_OP_ERR, both QPs
     * are in ERROR (their next sends are flushed), and the guarded pages are untouched.
     */
    private void receiveIsRefused(Link l, Guarded g, long addr, int length, int lkey) throws Exception {
        postOneReceive(l, addr, length, lkey);
        l.send(SEND_WR, 0, payload(MESSAGE, 9), null);
        assertCompletes(l.cqB, RECV_WR, receiveRefused(), "the receive's status");
        assertCompletes(l.cqA, SEND_WR, WcStatus.REM_OP_ERR, "the sender's status (the responder's NAK)");
        g.assertUntouched();
        assertInError(l, l.a, l.cqA, "the sender's");
        assertInError(l, l.b, l.cqB, "the receiver's");
    }

    /** {@return two connected QPs on one SRQ, on a driver whose statuses are known} */
    private Link link() throws VerbsException {
        assumeRcOnSrq();
        assumeTrue(driver == Driver.RXE || driver == Driver.MLX,
                target + ": the protection statuses are known for rxe and mlx5 only");
        return new Link(64, 256, 7);
    }

    /** Posts one receive WR ({@link #RECV_WR}) with one SGE, as given. */
    private static void postOneReceive(Link l, long addr, int length, int lkey) throws VerbsException {
        l.chain.set(0, RECV_WR, addr, length, lkey);
        l.srq.postReceive(l.chain, 1);
    }

    /** The next completion on {@code cq} is {@code wrId}'s, with {@code status}. */
    private void assertCompletes(CompletionQueue cq, long wrId, WcStatus status, String what) throws Exception {
        Wc wc = poll(cq, 1).getFirst();
        assertEquals(wrId, wc.wrId(), what + ": wr_id");
        assertEquals(status, wc.status(), what);
    }

    /** {@code qp} posts one more send, which is flushed: the QP is in ERROR. */
    private void assertInError(Link l, QueuePair qp, CompletionQueue cq, String whose) throws Exception {
        qp.postSend(FLUSHED_WR, l.mr, 0, 8, null);
        assertCompletes(cq, FLUSHED_WR, WcStatus.WR_FLUSH_ERR, whose + " QP is in ERROR");
    }

    @Test
    @DisplayName("control: a receive SGE inside a LOCAL_WRITE MR of the QP's PD gets the message there, and nothing around it is written")
    void receiveInsideAWritableMr() throws Exception {
        Link l = link();
        Guarded g = new Guarded(l.pd, EnumSet.of(AccessFlag.LOCAL_WRITE));
        postOneReceive(l, g.start() + 128, RECEIVE, g.mr.lkey());
        l.send(SEND_WR, 0, payload(MESSAGE, 9), null);
        Wc recv = poll(l.cqB, 1).getFirst();
        assertEquals(WcStatus.SUCCESS, recv.status());
        assertEquals(MESSAGE, recv.byteLen());
        assertArrayEquals(payload(MESSAGE, 9), g.inside.asSlice(128, MESSAGE).toArray(ValueLayout.JAVA_BYTE));
        g.assertUntouched(0, PAGE + 128);
        g.assertUntouched(PAGE + 128 + MESSAGE, 3 * PAGE);
        assertEquals(WcStatus.SUCCESS, poll(l.cqA, 1).getFirst().status());
    }

    /** A receive SGE that names no writable memory of the receiving QP's PD, one way each. */
    enum BadReceive {
        UNKNOWN_LKEY("an lkey that names no MR (the MR's index, another 8-bit key)", true, true, 0, 0x80),
        BEFORE_THE_MR("an address before its MR (rxe_mr.c mr_check_range)", true, true, -MESSAGE, 0),
        PAST_THE_END("a length that runs past the end of its MR", true, true, PAGE - 16, 0),
        NO_LOCAL_WRITE("an MR registered without IBV_ACCESS_LOCAL_WRITE (ibv_reg_mr(3))", true, false, 0, 0),
        ANOTHER_PD("an MR of another PD than the receiving QP's", false, true, 0, 0);

        final String what;
        final boolean samePd;
        final boolean localWrite;
        final long offset;
        final int keyBits;

        BadReceive(String what, boolean samePd, boolean localWrite, long offset, int keyBits) {
            this.what = what;
            this.samePd = samePd;
            this.localWrite = localWrite;
            this.offset = offset;
            this.keyBits = keyBits;
        }

        @Override
        public String toString() {
            return what;
        }
    }

    @ParameterizedTest(name = "a receive SGE with {0}: the receive fails (rxe LOC_QP_OP_ERR, mlx5 LOC_PROT_ERR), the send REM_OP_ERR, both QPs ERROR, nothing written")
    @EnumSource(BadReceive.class)
    void aReceiveSgeOutsideWritableMemoryOfThePdIsRefused(BadReceive bad) throws Exception {
        Link l = link();
        Guarded g = new Guarded(bad.samePd ? l.pd : ctx.allocPd(),
                bad.localWrite ? EnumSet.of(AccessFlag.LOCAL_WRITE) : EnumSet.noneOf(AccessFlag.class));
        receiveIsRefused(l, g, g.start() + bad.offset, RECEIVE, g.mr.lkey() ^ bad.keyBits);
    }

    @Test
    @DisplayName("an MR deregistered while a receive that names it is posted: the receive fails when a message comes, nothing written")
    void receiveIntoAnMrDeregisteredAfterThePost() throws Exception {
        Link l = link();
        Guarded g = new Guarded(l.pd, EnumSet.of(AccessFlag.LOCAL_WRITE));
        postOneReceive(l, g.start(), RECEIVE, g.mr.lkey());
        g.mr.close();
        l.send(SEND_WR, 0, payload(MESSAGE, 9), null);
        assertCompletes(l.cqB, RECV_WR, receiveRefused(), "the receive's status");
        assertCompletes(l.cqA, SEND_WR, WcStatus.REM_OP_ERR, "the sender's status");
        g.assertUntouched();
    }

    /** A sends from {@code from}; the send fails, the peer sees nothing, A is in ERROR. */
    private void sendIsRefused(Link l, MemoryRegion from) throws Exception {
        l.postReceives(1);
        l.a.postSend(SEND_WR, from, 0, MESSAGE, null);
        assertCompletes(l.cqA, SEND_WR, sendRefused(), "the sender's status");
        assertTrue(pollQuietly(l.cqB).isEmpty(), "the message never left: the receiver completes nothing");
        assertInError(l, l.a, l.cqA, "the sender's");
    }

    @Test
    @DisplayName("a send from an MR of another PD than the sending QP's: the send fails (rxe LOC_QP_OP_ERR, mlx5 LOC_PROT_ERR), the peer sees nothing")
    void sendFromAnMrOfAnotherPd() throws Exception {
        Link l = link();
        Guarded g = new Guarded(ctx.allocPd(), EnumSet.of(AccessFlag.LOCAL_WRITE));
        sendIsRefused(l, g.mr);
    }

    @Test
    @DisplayName("a send from a deregistered MR (its lkey is stale): the send fails, the peer sees nothing")
    void sendFromADeregisteredMr() throws Exception {
        Link l = link();
        Guarded g = new Guarded(l.pd, EnumSet.of(AccessFlag.LOCAL_WRITE));
        g.mr.close();
        sendIsRefused(l, g.mr);
    }
}
