package io.rdma.srq.it.mdb;

import io.rdma.srq.api.ActivationStatistics;
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
 * Client-side ITs' traffic, one {@link StreamSender} thread per MDB (not a request: a suspend or a
 * stop-delivery does not stop it):
 * <ul>
 *   <li>GET /traffic?op=start&amp;streams=name:port:marker,…: resets the tallies and starts one sender
 *       per stream, to the MDB listening on that port (name: its srqName and tally name; marker: its
 *       payload marker, one character);</li>
 *   <li>GET /traffic?op=acked: messages acknowledged so far, per stream (one count a line);</li>
 *   <li>GET /traffic?op=delivered: messages the MDBs recorded so far, per stream (one count a line);</li>
 *   <li>GET /traffic?op=stats&amp;name=N: the running activation with srqName N
 *       ({@link ActivationStatistics#toString()}), or {@code none};</li>
 *   <li>GET /traffic?op=stop: stops the senders, waits until every MDB is idle, answers one
 *       {@link StreamSender#report} line per stream.</li>
 * </ul>
 */
@WebServlet("/traffic")
public class TrafficServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final List<StreamSender> SENDERS = new ArrayList<>();
    private static final List<String> NAMES = new ArrayList<>();
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
                    case "start" -> start(req.getParameter("streams"));
                    case "acked" -> {
                        for (StreamSender s : SENDERS) {
                            out.println(s.acked());
                        }
                    }
                    case "delivered" -> {
                        for (String name : NAMES) {
                            out.println(Tally.of(name).total());
                        }
                    }
                    case "stats" -> out.println(factory.activationStatistics().stream()
                            .filter(s -> s.srqName().equals(req.getParameter("name"))).findFirst()
                            .map(ActivationStatistics::toString).orElse("none"));
                    case "stop" -> stop(out);
                    default -> throw new IllegalArgumentException("op: start, acked, delivered, stats or stop");
                }
            }
        } catch (Exception e) {
            resp.setStatus(500);
            out.println(e);
        }
    }

    private void start(String streams) {
        Tally.reset();
        Pauses.reset();
        SENDERS.clear();
        NAMES.clear();
        THREADS.clear();
        for (String stream : streams.split(",")) {
            String[] f = stream.split(":");
            StreamSender s = new StreamSender(factory, f[0], Integer.parseInt(f[1]), (byte) f[2].charAt(0));
            Thread t = new Thread(s, "stream-" + f[0]);
            t.setContextClassLoader(TrafficServlet.class.getClassLoader());
            t.setDaemon(true);
            t.start();
            SENDERS.add(s);
            NAMES.add(f[0]);
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
            Tally tally = Tally.of(NAMES.get(i));
            long before;
            do {
                before = tally.total();
                Thread.sleep(200);
            } while (tally.total() != before);
            out.println(SENDERS.get(i).report(tally));
        }
    }
}
