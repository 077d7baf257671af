package io.rdma.srq.it.app;

import jakarta.ejb.EJB;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/**
 * GET /probe: one {@link Probe} of the default definition ({@code @Resource} lookup) as text;
 * GET /probe?factory=orders: of the second definition ({@code @Inject @SrqFactory}). 500 with the
 * error otherwise.
 */
@WebServlet("/probe")
public class ProbeServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @EJB
    private ResourceLookupBean lookup;
    @EJB
    private InjectBean inject;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain");
        try {
            Probe p = "orders".equals(req.getParameter("factory")) ? inject.probeOrders() : lookup.probe();
            resp.getWriter().println(p.toText());
        } catch (Exception e) {
            resp.setStatus(500);
            resp.getWriter().println(e);
        }
    }
}
