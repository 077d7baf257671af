package io.rdma.srq.it.mdb;

import io.rdma.srq.verbs.soft.SoftProvider;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.time.Duration;

/**
 * GET /device?op=remove|add&amp;name=soft_mlx5_0: takes a soft device of the server's JVM away
 * ({@link SoftProvider#removeDevice}, waiting up to 10 s for its users to close it) or brings it
 * back; answers {@code removed=<completed>} or {@code added}.
 */
@WebServlet("/device")
public class DeviceServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain");
        String name = req.getParameter("name");
        if ("remove".equals(req.getParameter("op"))) {
            resp.getWriter().println("removed=" + SoftProvider.removeDevice(name, Duration.ofSeconds(10)));
        } else {
            SoftProvider.addDevice(name);
            resp.getWriter().println("added");
        }
    }
}
