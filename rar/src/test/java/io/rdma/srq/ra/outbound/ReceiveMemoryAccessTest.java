package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.ra.inbound.delivery.ReceiveBuffers;
import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.support.SendRing;
import io.rdma.srq.ra.testing.RecordingProtectionDomain;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.soft.SoftProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The claim "the adapter registers its memory with IBV_ACCESS_LOCAL_WRITE only" (docs/delivery.md, What
 * the adapter guarantees): the activation's receive slab ({@link ReceiveBuffers}), a connection's send
 * ring ({@link SendRing}) and a pooled SRQ's slab ({@link PooledSrq}) each register once, with
 * exactly LOCAL_WRITE — no REMOTE_READ, REMOTE_WRITE or REMOTE_ATOMIC, so no peer can read or write
 * them with RDMA, whatever rkey it learns; the device may write received messages (ibv_reg_mr(3)).
 */
class ReceiveMemoryAccessTest {
    private static final List<Set<AccessFlag>> ONCE_LOCAL_WRITE = List.of(EnumSet.of(AccessFlag.LOCAL_WRITE));

    private int liveBefore;
    private Context ctx;
    private RecordingProtectionDomain pd;

    @BeforeEach
    void open() throws Exception {
        liveBefore = SoftProvider.liveObjects();
        ctx = Verbs.provider(Verbs.SOFT).open("soft_rxe0");
        pd = new RecordingProtectionDomain(ctx.allocPd());
    }

    @AfterEach
    void close() throws Exception {
        ctx.close();
        assertEquals(liveBefore, SoftProvider.liveObjects(), "every soft object freed");
    }

    @Test
    void anActivationsReceiveSlabIsLocalWriteOnly() throws Exception {
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setProvider("soft");
        spec.setSrqMaxWr("64");
        spec.setSrqLimit("0");
        SharedReceiveQueue srq = pd.createSrq(new SrqAttributes(64, 1, 0));
        new ReceiveBuffers(pd, srq, spec.config());
        assertEquals(ONCE_LOCAL_WRITE, pd.registrations());
    }

    @Test
    void aSendRingIsLocalWriteOnly() throws Exception {
        CompletionQueue cq = ctx.createCq(16, null);
        QueuePair qp = pd.createQp(QpInitAttributes.builder(QpInitAttributes.QpType.RC).cq(cq).maxSendWr(8)
                .maxRecvWr(1).maxRecvSge(1).build());
        new SendRing(pd, qp, cq, 64, 8, () -> "nobody", Duration.ofSeconds(1)).close();
        assertEquals(ONCE_LOCAL_WRITE, pd.registrations());
    }

    @Test
    void aPooledSrqSlabIsLocalWriteOnly() throws Exception {
        PooledSrq.create(pd, "default", new SrqAttributes(64, 1, 16), 256).close();
        assertEquals(ONCE_LOCAL_WRITE, pd.registrations());
    }
}
