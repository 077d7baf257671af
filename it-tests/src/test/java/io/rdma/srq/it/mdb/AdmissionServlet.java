package io.rdma.srq.it.mdb;

import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.api.VerbsException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import javax.naming.InitialContext;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HexFormat;

/**
 * GET /admission?jndi=NAME&amp;n=N: connects to {@link HardenedMdb} through the connection factory
 * bound at NAME, sends N messages and answers {@code delivered=…}; when the connect is refused,
 * {@code refused errno=… privateData=<hex of the reject's first 6 bytes>} (the adapter's reason:
 * "SRQR", version, code).
 */
@WebServlet("/admission")
public class AdmissionServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain");
        try {
            int n = Integer.parseInt(req.getParameter("n"));
            SrqConnectionFactory factory = (SrqConnectionFactory) new InitialContext().lookup(req.getParameter("jndi"));
            Tally.reset();
            ByteBuffer buffer = ByteBuffer.allocateDirect(Messages.SIZE);
            try (SrqConnection c = factory.getConnection();
                 SrqPeer peer = c.connect(new InetSocketAddress(Messages.ADDRESS, HardenedMdb.PORT), Duration.ofSeconds(10))) {
                for (int i = 0; i < n; i++) {
                    peer.send(Messages.encode(buffer, i, HardenedMdb.MARKER), i);
                }
                peer.flush(Duration.ofSeconds(30));
            }
            Tally.Summary s = Tally.of(HardenedMdb.NAME).await(n, Duration.ofSeconds(30));
            resp.getWriter().printf("delivered=%d%n", s.total());
        } catch (VerbsException e) {
            resp.getWriter().printf("refused errno=%s privateData=%s message=%s%n", e.errnoName(), rejectData(e),
                    e.getMessage());
        } catch (Exception e) {
            resp.setStatus(500);
            resp.getWriter().println(e);
        }
    }

    /**
     * The reject's private data through its public accessor: the connect fails with
     * PeerUnavailableException (ECONNREFUSED), whose cause is the verb's own failure carrying it (the
     * cause's type is the adapter's).
     */
    private static String rejectData(VerbsException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            try {
                byte[] data = (byte[]) t.getClass().getMethod("privateData").invoke(t);
                return HexFormat.of().formatHex(data, 0, Math.min(6, data.length));
            } catch (ReflectiveOperationException notThisOne) {
                // the next cause
            }
        }
        return "none";
    }
}
