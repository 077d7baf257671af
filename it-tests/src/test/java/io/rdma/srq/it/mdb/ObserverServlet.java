package io.rdma.srq.it.mdb;

import jakarta.ejb.EJB;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;

/**
 * The blocking observer test's application ({@link BlockingLimitObserver}, {@link SlowMdb}):
 * <ul>
 *   <li>GET /observer?op=send&amp;prefix=P&amp;connections=C&amp;n=N: N messages over C new
 *       connections named P-0, P-1, … to {@link SlowMdb}, waits until they are delivered and answers
 *       {@code sent=… total=… missing=… duplicated=… problems=… blocking=…} (blocking: whether the
 *       observer was still blocked then);</li>
 *   <li>GET /observer?op=state: {@code blocking=… blockedAt=… endedAt=…};</li>
 *   <li>GET /observer?op=release: ends the observer's block.</li>
 * </ul>
 */
@WebServlet("/observer")
public class ObserverServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @EJB
    private Sender sender;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain");
        PrintWriter out = resp.getWriter();
        try {
            switch (req.getParameter("op")) {
                case "send" -> {
                    int n = Integer.parseInt(req.getParameter("n"));
                    Tally.reset();
                    long sent = sender.send(req.getParameter("prefix"), SlowMdb.PORT,
                            Integer.parseInt(req.getParameter("connections")), n, SlowMdb.MARKER);
                    Tally.Summary s = Tally.of(SlowMdb.NAME).await(n, Duration.ofSeconds(30));
                    out.printf("sent=%d total=%d missing=%d duplicated=%d problems=%d blocking=%b%n", sent, s.total(),
                            s.missing(), s.duplicated(), s.problems(), BlockingLimitObserver.blocking());
                }
                case "state" -> out.println("blocking=" + BlockingLimitObserver.blocking() + " "
                        + BlockingLimitObserver.state());
                case "release" -> BlockingLimitObserver.release();
                default -> throw new IllegalArgumentException("op: send, state or release");
            }
        } catch (Exception e) {
            resp.setStatus(500);
            out.println(e);
        }
    }
}
