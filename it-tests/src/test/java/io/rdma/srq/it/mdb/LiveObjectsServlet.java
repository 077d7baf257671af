package io.rdma.srq.it.mdb;

import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.verbs.soft.SoftProvider;
import jakarta.annotation.Resource;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.stream.Collectors;

/**
 * GET /live: {@code live=<SoftProvider.liveObjects()> activations=<srqName,...>} — the soft objects alive
 * in the server's JVM and the SRQ activations of the srq-rar.rar adapter
 * ({@link SrqConnectionFactory#activationStatistics()} of the default connection factory).
 */
@WebServlet("/live")
public class LiveObjectsServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Resource(lookup = "java:/eis/SrqConnectionFactory")
    private SrqConnectionFactory factory;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain");
        String names = factory.activationStatistics().stream().map(s -> s.srqName()).collect(Collectors.joining(","));
        resp.getWriter().printf("live=%d activations=%s%n", SoftProvider.liveObjects(), names);
    }
}
