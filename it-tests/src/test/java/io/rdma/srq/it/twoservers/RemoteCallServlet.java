package io.rdma.srq.it.twoservers;

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
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * On the first server: GET /call?n=N makes N calls to {@link FabricReplyMdb} on the other server
 * through the connection definition {@code java:/eis/SrqFabric} (provider fabric, device tcp:
 * deployment/src/main/cli/fabric.cli)
 * and answers {@code calls=N ok=… wrong=… failed=… first=…}: every call counted, each reply checked
 * to be its own.
 */
@WebServlet("/call")
public class RemoteCallServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final Duration T = Duration.ofSeconds(10);

    @Resource(lookup = "java:/eis/SrqFabric")
    private SrqConnectionFactory factory;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain");
        int n = Integer.parseInt(req.getParameter("n"));
        int ok = 0;
        int wrong = 0;
        int failed = 0;
        String first = "";
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer peer = c.connect(new InetSocketAddress(TwoServers.ADDRESS, TwoServers.PORT), T);
            for (int i = 0; i < n; i++) {
                String request = "call " + i;
                try {
                    SrqMessage reply = peer.call(ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII)), T);
                    if (("re:" + request).equals(new String(reply.copyPayload(), StandardCharsets.US_ASCII))) {
                        ok++;
                    } else {
                        wrong++;
                    }
                } catch (RuntimeException e) {
                    failed++;
                    if (first.isEmpty()) {
                        first = e.toString();
                    }
                }
            }
        } catch (RuntimeException | jakarta.resource.ResourceException e) {
            resp.setStatus(500);
            resp.getWriter().println(e);
            return;
        }
        resp.getWriter().printf("calls=%d ok=%d wrong=%d failed=%d first=%s%n", n, ok, wrong, failed, first);
    }
}
