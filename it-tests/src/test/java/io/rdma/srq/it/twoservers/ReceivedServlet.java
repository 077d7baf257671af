package io.rdma.srq.it.twoservers;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/** {@code GET /received}: what {@link SubscriberMdb} received — {@code received=N repeats=R qps=Q}. */
@WebServlet("/received")
public class ReceivedServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain");
        resp.getWriter().print("received=" + SubscriberMdb.RECEIVED.size() + " repeats=" + SubscriberMdb.REPEATS.size()
                + " qps=" + SubscriberMdb.BY_QP.size() + "\n");
    }
}
