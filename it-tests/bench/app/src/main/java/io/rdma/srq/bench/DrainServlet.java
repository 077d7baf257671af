package io.rdma.srq.bench;

import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/**
 * The receiver alone, for JMS cases: {@code POST /srq-bench/drain?case=c-jms-required&step=prefill&senders=2&messages=20000}
 * fills the queue (the script has stopped the MDB's delivery through management), then, after
 * start-delivery, {@code POST /srq-bench/drain?case=c-jms-required&step=drain} waits for the last
 * message and answers the MDB's rate from its first to its last delivery ({@link ThroughputDriver}).
 * Two servers: on server B, {@code step=arm&messages=N} arms the case's sink for N deliveries that
 * server A then sends ({@code /throughput?mode=send}); {@code step=drain} as above.
 */
@WebServlet("/drain")
public class DrainServlet extends HttpServlet {
    @Inject
    ThroughputDriver driver;

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain");
        ThroughputCase c;
        String step = req.getParameter("step");
        int senders;
        int messages;
        try {
            c = ThroughputCase.of(req.getParameter("case"));
            if (!"prefill".equals(step) && !"drain".equals(step) && !"arm".equals(step)) {
                throw new IllegalArgumentException("step must be prefill, arm or drain, got '" + step + "'");
            }
            senders = Params.intIn(req, "senders", 2, 1, 8);
            messages = Params.intIn(req, "messages", 20_000, 2, 10_000_000);
        } catch (IllegalArgumentException e) {
            resp.setStatus(400);
            resp.getWriter().println(e.getMessage());
            return;
        }
        try {
            if ("arm".equals(step)) {
                resp.getWriter().print("case=" + c.label() + "\narmed=" + c.deliveries().arm(messages) + "\n");
            } else if ("prefill".equals(step)) {
                resp.getWriter().print("case=" + c.label() + "\nsent=" + driver.prefill(c, senders, messages, 64) + "\n");
            } else {
                long nanos = driver.drain(c, 300_000);
                long n = c.deliveries().armed();
                resp.getWriter().print("case=" + c.label() + "\nmessages=" + n + "\ndrainMs=" + nanos / 1_000_000
                        + "\ndrainRate=" + Math.round((n - 1) * 1e9 / Math.max(1, nanos)) + "\n");
            }
        } catch (IllegalArgumentException e) {
            resp.setStatus(400);
            resp.getWriter().println(e.getMessage());
        } catch (Exception e) {
            resp.setStatus(500);
            resp.getWriter().println(e);
            log("drain failed", e);
        }
    }
}
