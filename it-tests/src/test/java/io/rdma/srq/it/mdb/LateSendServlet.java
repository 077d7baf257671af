package io.rdma.srq.it.mdb;

import jakarta.ejb.EJB;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.time.Duration;

/**
 * GET /send?n=N: sends N messages to {@link LateMdb} over 2 connections, waits for them and answers
 * {@code sent=N total=… missing=… duplicated=… problems=…}; 500 with the error otherwise.
 */
@WebServlet("/send")
public class LateSendServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @EJB
    private Sender sender;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain");
        try {
            int n = Integer.parseInt(req.getParameter("n"));
            Tally.reset();
            long sent = sender.send(LateMdb.PORT, 2, n, LateMdb.MARKER);
            Tally.Summary s = Tally.of(LateMdb.NAME).await(n, Duration.ofSeconds(30));
            resp.getWriter().printf("sent=%d total=%d missing=%d duplicated=%d problems=%d%n", sent, s.total(),
                    s.missing(), s.duplicated(), s.problems());
        } catch (Exception e) {
            resp.setStatus(500);
            resp.getWriter().println(e);
        }
    }
}
