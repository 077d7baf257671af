package io.rdma.srq.bench;

import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * {@code POST /srq-bench/roundtrip?case=jms-not-supported&callers=8&warmup=2000&calls=10000&size=64&maxMs=5000}:
 * {@code callers} EJB caller threads ({@link RoundTripCaller}, {@code @Asynchronous}) each make
 * {@code warmup} + {@code calls} round trips (each phase bounded in time by {@code maxMs}, see
 * {@link RoundTripCaller}); answers {@code key=value} lines: calls/s over the
 * timed phases (first start to last end) and the merged histogram's p50, p99, p99.9 and max in µs.
 */
@WebServlet("/roundtrip")
public class RoundTripServlet extends HttpServlet {
    @Inject
    RoundTripCaller caller;

    @Inject
    RoundTrips trips;

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain");
        String label = req.getParameter("case");
        int callers;
        int warmup;
        int calls;
        int size;
        int maxMs;
        try {
            trips.of(label);
            callers = Params.intIn(req, "callers", 1, 1, 8);
            warmup = Params.intIn(req, "warmup", 1000, 0, 10_000_000);
            calls = Params.intIn(req, "calls", 10_000, 1, 10_000_000);
            size = Params.intIn(req, "size", 64, 1, 1 << 20);
            maxMs = Params.intIn(req, "maxMs", 10_000, 1, 600_000);
        } catch (IllegalArgumentException e) {
            resp.setStatus(400);
            resp.getWriter().println(e.getMessage());
            return;
        }
        try {
            List<Future<CallerResult>> futures = new ArrayList<>(callers);
            for (int i = 0; i < callers; i++) {
                futures.add(caller.run(label, warmup, calls, size, maxMs));
            }
            Histogram all = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
            long start = Long.MAX_VALUE;
            long end = Long.MIN_VALUE;
            for (Future<CallerResult> f : futures) {
                CallerResult r = f.get();
                all.add(r.histogram());
                start = Math.min(start, r.startNanos());
                end = Math.max(end, r.endNanos());
            }
            long total = all.getTotalCount();
            resp.getWriter().print("case=" + label + "\ncallers=" + callers + "\nsize=" + size + "\ncalls=" + total
                    + "\ncallsPerSec=" + Math.round(total * 1e9 / (end - start))
                    + "\np50Us=" + us(all.getValueAtPercentile(50)) + "\np99Us=" + us(all.getValueAtPercentile(99))
                    + "\np999Us=" + us(all.getValueAtPercentile(99.9)) + "\nmaxUs=" + us(all.getMaxValue()) + "\n");
        } catch (Exception e) {
            resp.setStatus(500);
            resp.getWriter().println(e);
            log("round-trip run failed", e);
        }
    }

    private static String us(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1000.0);
    }
}
