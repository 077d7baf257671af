package io.rdma.srq.it.twoservers;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.WorkCompletionArray;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * The publisher on the first server, a peer that sends first (as rdma-core's ucmatose server does):
 * {@code GET /publish?connections=2&messages=1000} listens on
 * {@link TwoServers#ADDRESS}:{@link TwoServers#PUBLISHER_PORT} over libfabric's tcp with the verbs
 * layer alone (no activation, no pooled connection: the adapter has no publishing API), accepts
 * {@code connections} connections, sends {@code messages} messages round-robin over them — 4 bytes
 * each, the sequence number also as immediate data — waits for every send's completion, disconnects
 * and answers {@code accepted=C sent=N errors=E}.
 */
@WebServlet("/publish")
public class PublishServlet extends HttpServlet {
    private static final Duration T = Duration.ofSeconds(30);
    private static final int WINDOW = 32;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain");
        int connections = Integer.parseInt(req.getParameter("connections"));
        int messages = Integer.parseInt(req.getParameter("messages"));
        try (Context ctx = Verbs.provider("fabric").open("tcp");
             WorkCompletionArray wcs = new WorkCompletionArray(WINDOW)) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(4 * WINDOW * connections, null);
            SharedReceiveQueue srq = pd.createSrq(new SrqAttributes(16, 1, 0));
            MemoryRegion mr = pd.allocateRegistered(4L * WINDOW * connections, EnumSet.of(AccessFlag.LOCAL_WRITE));
            CmListener listener = ctx.listen(new InetSocketAddress(TwoServers.ADDRESS, TwoServers.PUBLISHER_PORT), 16);
            List<QueuePair> qps = new ArrayList<>();
            List<CmConnection> accepted = new ArrayList<>();
            long deadline = System.nanoTime() + T.toNanos();
            while (accepted.size() < connections && System.nanoTime() < deadline) {
                CmEvent e = listener.nextEvent(Duration.ofMillis(100)).orElse(null);
                if (e != null && e.type() == CmEventType.CONNECT_REQUEST) {
                    QueuePair qp = pd.createQp(QpInitAttributes.rcOnSrq(cq, srq, 2 * WINDOW));
                    qps.add(qp);
                    accepted.add(e.request().accept(qp));
                }
            }
            int outstanding = 0;
            int errors = 0;
            for (int i = 0; i < messages && !qps.isEmpty(); i++) {
                while (outstanding >= WINDOW) {
                    int n = cq.poll(wcs);
                    for (int k = 0; k < n; k++) {
                        errors += wcs.isSuccess(k) ? 0 : 1;
                    }
                    outstanding -= n;
                }
                long offset = 4L * (i % (WINDOW * connections));
                mr.segment().set(ValueLayout.JAVA_INT_UNALIGNED, offset, i);
                qps.get(i % qps.size()).postSend(i, mr, offset, 4, i);
                outstanding++;
            }
            while (outstanding > 0 && System.nanoTime() < deadline + T.toNanos()) {
                int n = cq.poll(wcs);
                for (int k = 0; k < n; k++) {
                    errors += wcs.isSuccess(k) ? 0 : 1;
                }
                outstanding -= n;
            }
            for (CmConnection c : accepted) {
                c.disconnect();
            }
            resp.getWriter().print("accepted=" + accepted.size() + " sent=" + (qps.isEmpty() ? 0 : messages)
                    + " errors=" + errors + " unfinished=" + outstanding + "\n");
        } catch (RuntimeException e) {
            resp.setStatus(500);
            resp.getWriter().println(e);
            log("publish failed", e);
        }
    }
}
