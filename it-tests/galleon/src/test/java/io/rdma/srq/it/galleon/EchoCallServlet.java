package io.rdma.srq.it.galleon;

import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.api.SrqFactory;
import jakarta.annotation.Resource;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * {@code GET /subsystem/call?timeoutMs=T}: one call to {@link SubsystemEchoMdb} over the layer's connection definition;
 * answers {@code ok}, or {@code failed <exception class>: <message>} (a timeout while delivery is paused,
 * a refused connect after a drain).
 */
@WebServlet("/call")
public class EchoCallServlet extends HttpServlet {
    @Resource(lookup = SrqFactory.DEFAULT)
    private SrqConnectionFactory factory;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Duration timeout = Duration.ofMillis(Long.parseLong(request.getParameter("timeoutMs")));
        String result;
        try (SrqConnection connection = factory.getConnection()) {
            byte[] reply = connection.connect(new InetSocketAddress(SubsystemEchoMdb.ADDRESS, SubsystemEchoMdb.PORT), timeout)
                    .call(ByteBuffer.wrap("ping".getBytes(StandardCharsets.US_ASCII)), timeout).copyPayload();
            result = "ping".equals(new String(reply, StandardCharsets.US_ASCII)) ? "ok" : "wrong reply";
        } catch (Exception e) {
            result = "failed " + e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        response.setContentType("text/plain");
        response.getWriter().print(result);
    }
}
