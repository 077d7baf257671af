package io.rdma.srq.it.cluster;

import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.api.SrqMessage;
import io.rdma.srq.api.SrqPeer;
import jakarta.annotation.Resource;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * On node 1: GET /calls?ms=M[&amp;service=S] calls the service S (default {@link ClusterEchoMdb#SERVICE}) by
 * name, one call after another, for M milliseconds, through {@code java:/eis/SrqFabric} (provider
 * fabric), and answers one line: {@code issued= ok= failed= wrong= nodes={node=answers…} failover_ms=
 * gap_ms= first=} — every call counted (ok + failed = issued), each reply checked to be its own (wrong:
 * another call's), the answers per node, the time from the first failure to the first success after
 * the last failure, and the longest time between two successful calls (a handover's length).
 */
@WebServlet("/calls")
public class ClusterCallServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final Duration T = Duration.ofSeconds(5);

    @Resource(lookup = "java:/eis/SrqFabric")
    private SrqConnectionFactory factory;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain");
        long end = System.nanoTime() + Long.parseLong(req.getParameter("ms")) * 1_000_000L;
        String name = req.getParameter("service") == null ? ClusterEchoMdb.SERVICE : req.getParameter("service");
        long lastOk = System.nanoTime();
        long gap = 0;
        long issued = 0;
        long ok = 0;
        long failed = 0;
        long wrong = 0;
        long firstFailure = 0;
        long lastFailure = 0;
        long recovered = 0;
        String first = "";
        Map<String, Long> nodes = new TreeMap<>();
        try (SrqConnection c = factory.getConnection(); SrqPeer service = c.connect(name, T)) {
            for (int i = 0; System.nanoTime() < end; i++) {
                String request = "call " + i;
                issued++;
                try {
                    SrqMessage reply = service.call(ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII)), T);
                    String text = new String(reply.copyPayload(), StandardCharsets.US_ASCII);
                    if (text.startsWith(request + "@")) {
                        ok++;
                        long now = System.nanoTime();
                        gap = Math.max(gap, now - lastOk);
                        lastOk = now;
                        nodes.merge(text.substring(request.length() + 1), 1L, Long::sum);
                        if (lastFailure != 0 && recovered < lastFailure) {
                            recovered = System.nanoTime();
                        }
                    } else {
                        wrong++;
                    }
                } catch (RuntimeException e) {
                    failed++;
                    lastFailure = System.nanoTime();
                    if (firstFailure == 0) {
                        firstFailure = lastFailure;
                        first = e.toString();
                    }
                }
            }
        } catch (RuntimeException | jakarta.resource.ResourceException e) {
            resp.setStatus(500);
            resp.getWriter().println(e);
            return;
        }
        long failoverMs = firstFailure == 0 ? 0 : ((recovered > lastFailure ? recovered : System.nanoTime()) - firstFailure) / 1_000_000;
        resp.getWriter().printf("issued=%d ok=%d failed=%d wrong=%d nodes=%s failover_ms=%d gap_ms=%d first=%s%n", issued,
                ok, failed, wrong, nodes, failoverMs, gap / 1_000_000, first);
    }
}
