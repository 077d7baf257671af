package io.rdma.srq.it.mdb;

import io.rdma.srq.api.SrqConnectionFactory;
import jakarta.annotation.Resource;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The suspend test's traffic, one {@link StreamSender} thread per MDB ({@link SuspendAMdb},
 * {@link SuspendBMdb}, {@link SuspendCMdb}):
 * <ul>
 *   <li>GET /traffic?op=start&amp;streams=N: resets the tallies and starts senders to the first N MDBs;</li>
 *   <li>GET /traffic?op=acked: messages acknowledged so far, per stream ({@code name=count} lines);</li>
 *   <li>GET /traffic?op=stop: stops the senders, waits until every MDB is idle, answers one
 *       {@link StreamSender#report} line per stream.</li>
 * </ul>
 */
@WebServlet("/traffic")
public class TrafficServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final String[] NAMES = {SuspendAMdb.NAME, SuspendBMdb.NAME, SuspendCMdb.NAME};
    private static final int[] PORTS = {SuspendAMdb.PORT, SuspendBMdb.PORT, SuspendCMdb.PORT};
    private static final byte[] MARKERS = {SuspendAMdb.MARKER, SuspendBMdb.MARKER, SuspendCMdb.MARKER};
    private static final List<StreamSender> SENDERS = new ArrayList<>();
    private static final List<Thread> THREADS = new ArrayList<>();

    /** The default connection definition (ironjacamar.xml of the adapter). */
    @Resource(lookup = "java:/eis/SrqConnectionFactory")
    private transient SrqConnectionFactory factory;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain");
        PrintWriter out = resp.getWriter();
        try {
            synchronized (SENDERS) {
                switch (req.getParameter("op")) {
                    case "start" -> start(Integer.parseInt(req.getParameter("streams")));
                    case "acked" -> {
                        for (StreamSender s : SENDERS) {
                            out.println(s.acked());
                        }
                    }
                    case "stop" -> stop(out);
                    default -> throw new IllegalArgumentException("op: start, acked or stop");
                }
            }
        } catch (Exception e) {
            resp.setStatus(500);
            out.println(e);
        }
    }

    private void start(int streams) {
        Tally.reset();
        Pauses.reset();
        SENDERS.clear();
        THREADS.clear();
        for (int i = 0; i < streams; i++) {
            StreamSender s = new StreamSender(factory, NAMES[i], PORTS[i], MARKERS[i]);
            Thread t = new Thread(s, "stream-" + NAMES[i]);
            t.setContextClassLoader(TrafficServlet.class.getClassLoader());
            t.setDaemon(true);
            t.start();
            SENDERS.add(s);
            THREADS.add(t);
        }
    }

    private static void stop(PrintWriter out) throws InterruptedException {
        for (StreamSender s : SENDERS) {
            s.stop();
        }
        for (Thread t : THREADS) {
            t.join(30_000);
        }
        for (int i = 0; i < SENDERS.size(); i++) { // the MDB is idle once its tally stops growing
            Tally tally = Tally.of(NAMES[i]);
            long before;
            do {
                before = tally.total();
                Thread.sleep(200);
            } while (tally.total() != before);
            out.println(SENDERS.get(i).report(tally));
        }
    }
}
