package io.rdma.srq.bench;

import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/**
 * {@code POST /srq-bench/throughput?case=a-srq-required&senders=2&peers=4&messages=50000&size=64&timeoutMs=120000}:
 * runs one measurement ({@link ThroughputDriver}) and answers its {@code key=value} lines; with
 * {@code mode=send} (a case whose sink is on server B) only sends, and answers the send phase's
 * {@code sent}, {@code sendMs} and {@code sendRate};
 * 400 for a bad parameter, 500 with the error when the run fails.
 */
@WebServlet("/throughput")
public class ThroughputServlet extends HttpServlet {
    @Inject
    ThroughputDriver driver;

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain");
        ThroughputCase c;
        int senders;
        int peers;
        long messages;
        int size;
        long timeoutMs;
        try {
            c = ThroughputCase.of(req.getParameter("case"));
            senders = Params.intIn(req, "senders", 2, 1, 8);
            peers = Params.intIn(req, "peers", 4, 1, 64);
            messages = Params.intIn(req, "messages", 50_000, 1, 10_000_000);
            size = Params.intIn(req, "size", 64, 1, 256);
            timeoutMs = Params.intIn(req, "timeoutMs", 120_000, 1, 600_000);
        } catch (IllegalArgumentException e) {
            resp.setStatus(400);
            resp.getWriter().println(e.getMessage());
            return;
        }
        try {
            if ("send".equals(req.getParameter("mode"))) {
                long nanos = driver.send(c, senders, peers, messages, size);
                resp.getWriter().print("case=" + c.label() + "\nsent=" + senders * messages + "\nsendMs=" + nanos / 1_000_000
                        + "\nsendRate=" + Math.round(senders * messages * 1e9 / Math.max(1, nanos)) + "\n");
            } else {
                resp.getWriter().print(driver.run(c, senders, peers, messages, size, timeoutMs).toText());
            }
        } catch (IllegalArgumentException e) {
            resp.setStatus(400);
            resp.getWriter().println(e.getMessage());
        } catch (Exception e) {
            resp.setStatus(500);
            resp.getWriter().println(e);
            log("throughput run failed", e);
        }
    }
}
