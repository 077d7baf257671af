package io.rdma.srq.verbs.bench;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.WorkCompletionArray;
import io.rdma.srq.verbs.conformance.VerbsTarget;
import io.rdma.srq.verbs.ffi.ibverbs.ibv_wc;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;

/**
 * The FFM path of the verbs layer, one thread, one device (issue #9). Scores are ns per op; the
 * same loops in C ({@code native/src/bench/c/ffm_path_loops.c}) give the reference, and
 * {@code native/src/bench/ffm-path.sh} runs both and prints medians and the Java/C ratio.
 *
 * <ul>
 *   <li>{@link #pollEmptyCq}: one ibv_poll_cq with {@code num_entries} 32 on a CQ of 256 CQEs that
 *       no QP uses (always empty). Op = one poll. Mode AverageTime.</li>
 *   <li>{@link #parse32}: reads wr_id, status, opcode, byte_len, wc_flags, imm_data (when
 *       IBV_WC_WITH_IMM is set), qp_num and src_qp of 32 WCs already in a {@link WorkCompletionArray},
 *       each into a {@link Blackhole}. The 32 WCs are real ones, produced once per trial: 32 SEND with
 *       immediate of 64 bytes over an RC QP pair on one SRQ (max_wr 64), collected from the receiving
 *       QP's CQ. Op = one batch of 32 WCs. Mode AverageTime.</li>
 *   <li>{@link #postSrqRecv}: one ibv_post_srq_recv of a chain of {@code chain} receive WRs (one SGE
 *       of 64 bytes each). Op = one post call (divide by {@code chain} for ns per WR).</li>
 * </ul>
 *
 * <p>Posted receive WRs cannot be taken back, so {@code postSrqRecv} cannot run open-ended
 * (AverageTime would overflow any SRQ). It uses Mode.SingleShotTime with {@link #POSTS} calls per
 * iteration (JMH's batchSize): {@link Posting#freshSrq} creates, before every iteration and outside
 * the measurement, an empty SRQ with max_wr = {@code POSTS × chain}, the iteration times the
 * {@code POSTS} calls as one shot, and {@link Posting#dropSrq} destroys the SRQ afterwards. The score
 * JMH reports for SingleShotTime is the shot's time divided by the ops of one invocation
 * (JMH 1.37 ignores batchSize there), so {@link #postSrqRecv} reports ns per <em>batch</em>; the
 * script divides by {@link #POSTS}. Timer overhead (two nanoTime calls per shot of 1024 calls) is
 * negligible. Many warmup shots stand in for AverageTime's timed warmup so the JIT compiles the path.
 *
 * <p>The medians ffm-path.sh quotes are the medians of the measurement iterations' scores (JMH's
 * {@code scorePercentiles["50.0"]}); the C program times runs of the same length and takes the median
 * the same way.
 *
 * <p>Device: {@code -Dverbs.provider} (default {@code soft}), {@code -Dverbs.device} (default: the
 * provider's first device, {@code soft_rxe0} for soft), {@code -Dverbs.gidIndex} (default 0 soft, 1
 * ibverbs), as {@link VerbsTarget} reads them. JMH's forked JVM inherits the launching JVM's
 * {@code -D} options unless {@code -jvmArgs} replaces them; ffm-path.sh passes them explicitly with
 * {@code -jvmArgsAppend}.
 *
 * <p>Run alone: {@code java --enable-native-access=ALL-UNNAMED -cp TEST_CLASSPATH org.openjdk.jmh.Main
 * FfmPathBenchmark}, or {@code mvn -B -pl native -am -Pbench verify -Dbench.include=FfmPathBenchmark}.
 */
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class FfmPathBenchmark {
    /** WCs per poll and per parsed batch. */
    public static final int BATCH = 32;
    /** CQEs of every CQ. */
    public static final int CQ_ENTRIES = 256;
    /** max_wr of the SRQ the parse32 WCs are received on. */
    public static final int PARSE_SRQ_WR = 64;
    /** Bytes per message and per receive buffer. */
    public static final int MESSAGE = 64;
    /** ibv_post_srq_recv calls per postSrqRecv iteration (JMH batchSize). */
    public static final int POSTS = 1024;
    private static final int PORT = 1;

    static VerbsTarget target() throws VerbsException {
        return VerbsTarget.targets().findFirst().orElseThrow();
    }

    static Context open(VerbsTarget target) throws VerbsException {
        return Verbs.provider(target.provider()).open(target.device());
    }

    /** The empty CQ and the 32 real WCs, for {@link #pollEmptyCq} and {@link #parse32}. */
    @State(Scope.Thread)
    public static class Polling {
        Context ctx;
        CompletionQueue emptyCq;
        WorkCompletionArray polled;
        WorkCompletionArray parsed;

        @Setup(Level.Trial)
        public void setUp() throws VerbsException {
            VerbsTarget target = target();
            ctx = open(target);
            emptyCq = ctx.createCq(CQ_ENTRIES, null);
            polled = new WorkCompletionArray(BATCH);
            parsed = new WorkCompletionArray(BATCH);
            receive32(target);
        }

        /** 32 SEND with immediate from QP a to QP b (on an SRQ); b's 32 WCs end up in {@link #parsed}. */
        private void receive32(VerbsTarget target) throws VerbsException {
            ProtectionDomain pd = ctx.allocPd();
            SharedReceiveQueue srq = pd.createSrq(new SrqAttributes(PARSE_SRQ_WR, 1, 0));
            CompletionQueue sendCq = ctx.createCq(CQ_ENTRIES, null);
            CompletionQueue recvCq = ctx.createCq(CQ_ENTRIES, null);
            QueuePair a = pd.createQp(QpInitAttributes.builder(QpInitAttributes.QpType.RC).cq(sendCq)
                    .maxSendWr(PARSE_SRQ_WR).maxRecvWr(1).maxRecvSge(1).build());
            QueuePair b = pd.createQp(QpInitAttributes.rcOnSrq(recvCq, srq, 1));
            int gid = target.gidIndex();
            a.connect(PORT, gid, b.localEndpoint(PORT, gid));
            b.connect(PORT, gid, a.localEndpoint(PORT, gid));
            MemoryRegion slab = pd.allocateRegistered((long) (BATCH + 1) * MESSAGE, EnumSet.of(AccessFlag.LOCAL_WRITE));
            try (ReceiveWorkRequests wrs = new ReceiveWorkRequests(BATCH)) {
                for (int i = 0; i < BATCH; i++) {
                    wrs.set(i, 1000 + i, slab.address() + (long) (i + 1) * MESSAGE, MESSAGE, slab.lkey());
                }
                srq.postReceive(wrs, BATCH);
            }
            for (int i = 0; i < BATCH; i++) {
                a.postSend(i, slab, 0, MESSAGE, 0x1000 + i);
            }
            collect(recvCq, parsed, "receive");
            collect(sendCq, polled, "send");
            for (int i = 0; i < BATCH; i++) {
                if (!parsed.isSuccess(i) || !parsed.hasImm(i)) {
                    throw new IllegalStateException("receive WC " + i + ": " + parsed.status(i) + ", flags " + parsed.wcFlags(i));
                }
            }
            pd.close();       // QPs, SRQ, MR; the WCs were copied out
            recvCq.close();
            sendCq.close();
        }

        /** Polls {@code cq} until 32 WCs sit in {@code into}, in order, at most 10 s. */
        private static void collect(CompletionQueue cq, WorkCompletionArray into, String what) throws VerbsException {
            long wcSize = ibv_wc.sizeof();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            try (WorkCompletionArray scratch = new WorkCompletionArray(BATCH)) {
                int got = 0;
                while (got < BATCH) {
                    int n = cq.poll(scratch, BATCH - got);
                    MemorySegment.copy(scratch.segment(), 0, into.segment(), got * wcSize, n * wcSize);
                    got += n;
                    if (n == 0 && System.nanoTime() > deadline) {
                        throw new IllegalStateException(got + " of " + BATCH + " " + what + " WCs after 10 s");
                    }
                }
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() throws VerbsException {
            polled.close();
            parsed.close();
            ctx.close();
        }
    }

    /** A PD, a slab and a prepared chain; a fresh SRQ per iteration, for {@link #postSrqRecv}. */
    @State(Scope.Thread)
    public static class Posting {
        /** Receive WRs per ibv_post_srq_recv. */
        @Param({"1", "16", "64"})
        public int chain;

        Context ctx;
        ProtectionDomain pd;
        MemoryRegion slab;
        ReceiveWorkRequests wrs;
        SharedReceiveQueue srq;

        @Setup(Level.Trial)
        public void setUp() throws VerbsException {
            ctx = open(target());
            pd = ctx.allocPd();
            slab = pd.allocateRegistered((long) chain * MESSAGE, EnumSet.of(AccessFlag.LOCAL_WRITE));
            wrs = new ReceiveWorkRequests(chain);
            for (int i = 0; i < chain; i++) {
                wrs.set(i, i, slab.address() + (long) i * MESSAGE, MESSAGE, slab.lkey());
            }
        }

        /** An empty SRQ with room for the whole iteration: max_wr = POSTS × chain. */
        @Setup(Level.Iteration)
        public void freshSrq() throws VerbsException {
            srq = pd.createSrq(new SrqAttributes(POSTS * chain, 1, 0));
        }

        @TearDown(Level.Iteration)
        public void dropSrq() throws VerbsException {
            srq.close();
        }

        @TearDown(Level.Trial)
        public void tearDown() throws VerbsException {
            wrs.close();
            ctx.close();
        }
    }

    /**
     * @param s the empty CQ
     * @return the number of WCs polled, always 0
     */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @Warmup(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
    @Measurement(iterations = 11, time = 500, timeUnit = TimeUnit.MILLISECONDS)
    public int pollEmptyCq(Polling s) throws VerbsException {
        return s.emptyCq.poll(s.polled, BATCH);
    }

    /**
     * @param s  the 32 WCs
     * @param bh takes every field read
     */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @Warmup(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
    @Measurement(iterations = 11, time = 500, timeUnit = TimeUnit.MILLISECONDS)
    public void parse32(Polling s, Blackhole bh) {
        WorkCompletionArray wc = s.parsed;
        for (int i = 0; i < BATCH; i++) {
            bh.consume(wc.wrId(i));
            bh.consume(wc.statusCode(i));
            bh.consume(wc.opcode(i));
            bh.consume(wc.byteLen(i));
            int flags = wc.wcFlags(i);
            bh.consume(flags);
            if ((flags & WorkCompletionArray.WITH_IMM) != 0) {
                bh.consume(wc.immData(i));
            }
            bh.consume(wc.qpNum(i));
            bh.consume(wc.srcQp(i));
        }
    }

    /**
     * One ibv_post_srq_recv of {@code chain} WRs. JMH's score is per shot of {@link #POSTS} calls.
     *
     * @param s the SRQ of this iteration and the chain
     */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @Warmup(iterations = 100, batchSize = POSTS)
    @Measurement(iterations = 21, batchSize = POSTS)
    public void postSrqRecv(Posting s) throws VerbsException {
        s.srq.postReceive(s.wrs, s.chain);
    }
}
